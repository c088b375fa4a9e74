import { readFile } from "node:fs/promises";
import path from "node:path";
import { packageConfig } from "../../tsup.base.ts";

export default packageConfig({
  // Tool descriptions are `import text from "./x.txt?raw"` (what Vite, and so vitest, understands);
  // this plugin gives esbuild the same meaning, so the text is inlined into dist/index.js. The file
  // stays in esbuild's "file" namespace, which names it relative to the package in the bundle's
  // comments and source map: a custom namespace would embed the build machine's absolute path.
  esbuildPlugins: [
    {
      name: "raw-text",
      setup(build) {
        const raw = new Set<string>();
        build.onResolve({ filter: /\?raw$/ }, (args) => {
          const file = path.resolve(args.resolveDir, args.path.replace(/\?raw$/, ""));
          raw.add(file);
          return { path: file };
        });
        build.onLoad({ filter: /.*/ }, async (args) => {
          if (!raw.has(args.path)) return undefined;
          return { contents: await readFile(args.path, "utf8"), loader: "text" };
        });
      },
    },
  ],
});
