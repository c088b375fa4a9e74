import { readFile } from "node:fs/promises";
import path from "node:path";
import { packageConfig } from "../../tsup.base.ts";

export default packageConfig({
  // Tool descriptions are `import text from "./x.txt?raw"` (what Vite, and so vitest, understands);
  // this plugin gives esbuild the same meaning, so the text is inlined into dist/index.js.
  esbuildPlugins: [
    {
      name: "raw-text",
      setup(build) {
        build.onResolve({ filter: /\?raw$/ }, (args) => ({
          path: path.resolve(args.resolveDir, args.path.replace(/\?raw$/, "")),
          namespace: "raw-text",
        }));
        build.onLoad({ filter: /.*/, namespace: "raw-text" }, async (args) => ({
          contents: await readFile(args.path, "utf8"),
          loader: "text",
        }));
      },
    },
  ],
});
