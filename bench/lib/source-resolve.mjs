// Module hooks for benchmarks that measure internals not exported from a package's entry: they
// import the TypeScript sources by path. Those sources name their neighbours `./x.js` (as the build
// output will be called) and use syntax Node's type stripping does not take (parameter properties),
// so for files under packages/ and test/ only: `./x.js` resolves to `./x.ts` when no `.js` is there,
// and `.ts` files are compiled with esbuild, as the packages' own build does.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";

const fromSources = (url) => /\/(packages|test)\//.test(url ?? "") && !/\/node_modules\//.test(url ?? "");

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND" || !fromSources(context.parentURL) || !specifier.endsWith(".js")) throw error;
    return next(`${specifier.slice(0, -3)}.ts`, context);
  }
}

export async function load(url, context, next) {
  if (!url.endsWith(".ts") || !fromSources(url)) return next(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, "utf8"), { loader: "ts", format: "esm", target: "node22", sourcefile: path });
  return { format: "module", source: code, shortCircuit: true };
}
