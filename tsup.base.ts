import { defineConfig, type Options } from "tsup";

/**
 * The build every package shares: ESM with type declarations for Node 22, from `src/index.ts`.
 * A package passes only what it does differently (more entries, esbuild plugins, externals).
 */
export function packageConfig(overrides: Options = {}) {
  return defineConfig({
    entry: ["src/index.ts"],
    format: ["esm"],
    dts: true,
    clean: true,
    sourcemap: true,
    target: "node22",
    ...overrides,
  });
}
