import { defineConfig } from "tsup";

export default defineConfig({
  // conformance.ts is its own entry so importing @lathe/storage never loads vitest; lease-child.ts is
  // the script spawnLeaseProcess runs in a child process.
  entry: ["src/index.ts", "src/conformance.ts", "src/lease-child.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node22",
  external: ["vitest"],
});
