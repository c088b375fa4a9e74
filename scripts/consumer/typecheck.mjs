// Type-checks a consumer app's files as its own compiler settings would: strict, the libraries'
// declarations checked too (skipLibCheck off), under each module resolution a consumer may use.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAsync } from "./parallel.mjs";

/** The `module` / `moduleResolution` pairs a consumer's tsconfig may have. */
export const RESOLUTIONS = {
  node16: { module: "node16", moduleResolution: "node16" },
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
};

/** Runs tsc (the repository's) over `include` in `appDir` under one resolution; resolves to { ok, output }. */
export async function typecheck(root, appDir, resolution, include) {
  const config = join(appDir, `tsconfig.${resolution}.json`);
  const compilerOptions = { ...RESOLUTIONS[resolution], target: "es2022", strict: true, skipLibCheck: false, noEmit: true, types: ["node"] };
  writeJson(config, { compilerOptions, include });
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const result = await runAsync(process.execPath, [tsc, "-p", config, "--pretty", "false"], { cwd: appDir });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim() };
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}
