import { packageConfig } from "../../tsup.base.ts";

export default packageConfig({
  // conformance.ts is its own entry so importing @lathe/storage never loads vitest; lease-child.ts is
  // the script spawnLeaseProcess runs in a child process.
  entry: ["src/index.ts", "src/conformance.ts", "src/lease-child.ts"],
  external: ["vitest"],
});
