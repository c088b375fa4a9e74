import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";

let loading: Promise<Parser> | undefined;

/**
 * The bash parser, loaded once on first use from the wasm files inside the installed
 * `web-tree-sitter` and `tree-sitter-bash` packages (nothing is downloaded). A failed load is not
 * cached, so a later call retries.
 */
export function bashParser(): Promise<Parser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<Parser> {
  const require = createRequire(import.meta.url);
  const runtimeWasm = require.resolve("web-tree-sitter/web-tree-sitter.wasm");
  await Parser.init({ locateFile: () => runtimeWasm });
  const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  const parser = new Parser();
  parser.setLanguage(language);
  // The first parses run the wasm code cold (many times slower): spent here, on loading, rather
  // than out of the first command's analysis time budget.
  for (let i = 0; i < 3; i++) parser.parse("a=1 b 'c' \"d\" >e 2>&1 | f && { g; } || (h) <<< i; j $(k) `l` <(m)")?.delete();
  return parser;
}
