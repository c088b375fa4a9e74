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
  const time = (label, started) => console.log(`  ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  let started = Date.now();
  const built = spawnSync(process.execPath, [join(root, "scripts", "ensure-built.mjs")], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("the build failed");
  time("build (what was stale)", started);
  started = Date.now();
  const tmp = mkdtempSync(join(tmpdir(), "lathe-consumer-"));
  const tarballs = packPackages(root, publishablePackages(), join(tmp, "tarballs"));
  const problems = tarballs.flatMap((packed) => inspectTarball(packed, root, join(tmp, "unpacked")));
  time("npm pack and inspect", started);
  started = Date.now();
  const app = join(tmp, "app");
  installApp(app, tarballs, Object.fromEntries(EXTRAS.map((name) => [name, rootVersion(root, name)])));
  time("npm install into the app", started);
  return { tmp, app, tarballs, problems };
}
