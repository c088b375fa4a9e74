#!/usr/bin/env node
// Makes sure the system services Lathe's tests use are installed: git, ripgrep, bubblewrap,
// PostgreSQL, tmux (the CLI example is tested in a tmux pseudo-terminal) and Chromium (examples/web is
// tested in it) — Debian packages. Run by `npm test` before the suite; on a machine where we are root
// and a package is missing it is installed with apt-get, otherwise the missing ones are named.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

const has = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;

function postgresBinDir() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(`${root}/${v}/bin/initdb`));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] ? `${root}/${versions[0]}/bin` : undefined;
}

const wanted = [
  { pkg: "git", present: () => has("git") },
  { pkg: "ripgrep", present: () => has("rg") },
  { pkg: "bubblewrap", present: () => has("bwrap") },
  { pkg: "postgresql", present: () => postgresBinDir() !== undefined },
  { pkg: "tmux", present: () => has("tmux") },
  // examples/web is tested end to end in a headless browser (playwright-core drives the system's).
  { pkg: "chromium", present: () => has("chromium") },
];

const missing = wanted.filter((w) => !w.present()).map((w) => w.pkg);
if (missing.length === 0) {
  console.log(`setup: ${wanted.map((w) => w.pkg).join(", ")} are installed`);
  process.exit(0);
}
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
if (!isRoot || !has("apt-get")) {
  console.error(`setup: missing system packages: ${missing.join(", ")}. Install them (Debian: apt-get install ${missing.join(" ")}).`);
  process.exit(1);
}
console.log(`setup: installing ${missing.join(", ")} with apt-get`);
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], { stdio: "inherit", env });
const still = wanted.filter((w) => !w.present()).map((w) => w.pkg);
if (still.length > 0) {
  console.error(`setup: still missing after apt-get: ${still.join(", ")}`);
  process.exit(1);
}
