// Packs the publishable packages and installs them into a consumer app in the system's temporary
// folder, once, for every check that needs them (the consumer check, the documentation snippets).
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publishablePackages } from "../workspace-packages.mjs";
import { inspectTarball, installApp, packPackages, rootVersion } from "./app.mjs";

/** What the documentation's code imports besides the packages themselves: a consumer installs these too. */
const EXTRAS = ["@ai-sdk/anthropic", "@types/node", "ai", "vitest", "zod"];

/**
 * Builds what is stale, packs every publishable workspace package, inspects the tarballs and
 * installs them into `<tmp>/app`. Returns { tmp, app, tarballs, problems } (problems: the tarballs').
 */
export function prepareConsumerApp(root) {
  const built = spawnSync(process.execPath, [join(root, "scripts", "ensure-built.mjs")], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("the build failed");
  const tmp = mkdtempSync(join(tmpdir(), "lathe-consumer-"));
  const tarballs = packPackages(root, publishablePackages(), join(tmp, "tarballs"));
  const problems = tarballs.flatMap((packed) => inspectTarball(packed, root, join(tmp, "unpacked")));
  const app = join(tmp, "app");
  installApp(app, tarballs, Object.fromEntries(EXTRAS.map((name) => [name, rootVersion(root, name)])));
  return { tmp, app, tarballs, problems };
}
