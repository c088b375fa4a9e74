import { defineConfig } from "tsup";

export default defineConfig({
  // conformance.ts is its own entry so importing @lathe/storage never loads vitest.
  entry: ["src/index.ts", "src/conformance.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node22",
  external: ["vitest"],
});
