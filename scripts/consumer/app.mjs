// A consumer's app outside the repository: the packages packed as npm would publish them, checked
// as tarballs, and installed into a fresh project in the system's temporary folder.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Runs a command, failing with its output when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0) {
    throw new Error(`${[command, ...args].join(" ")} failed (${result.status ?? result.signal}):\n${result.stdout ?? ""}${result.stderr ?? ""}`);
  }
  return result.stdout;
}

/** `npm pack`s every package into `dest` in one call; returns [{ name, dir, tarball }]. */
export function packPackages(root, packages, dest) {
  mkdirSync(dest, { recursive: true });
  const args = ["pack", "--json", "--ignore-scripts", "--pack-destination", dest, ...packages.flatMap(({ dir }) => ["--workspace", dir])];
  const packed = JSON.parse(run("npm", args, { cwd: root }));
  return packages.map(({ dir, manifest }) => {
    const entry = packed.find((p) => p.name === manifest.name);
    if (!entry) throw new Error(`npm pack produced no tarball for ${manifest.name}`);
    return { name: manifest.name, dir, tarball: join(dest, entry.filename), files: entry.files.map((f) => f.path) };
  });
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/**
 * What a tarball must hold and must not: its README and the repository's LICENSE (a new package
 * copies it), and no path of the machine that built it (the repository's folder, the builder's
 * home) in any file — a build is the same anywhere. Returns the problems found.
 */
export function inspectTarball({ name, tarball, files }, root, scratch) {
  const problems = [];
  for (const required of ["package.json", "README.md", "LICENSE"]) {
    if (!files.includes(required)) problems.push(`${name}: the tarball has no ${required}`);
  }
  // A home of one segment (/root) is too short to tell from ordinary text; /home/<user> is not.
  const home = homedir().split("/").filter(Boolean).length >= 2 ? [homedir()] : [];
  const machinePaths = [...new Set([root, realpathSync(root), ...home])];
  const into = join(scratch, name.replace(/[@/]/g, "_"));
  mkdirSync(into, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", into]);
  const license = join(into, "package", "LICENSE");
  if (files.includes("LICENSE") && readFileSync(license, "utf8") !== readFileSync(join(root, "LICENSE"), "utf8")) {
    problems.push(`${name}: its LICENSE differs from the repository's`);
  }
  problems.push(...undeclaredTypeImports(name, join(into, "package"), root));
  for (const file of filesUnder(into)) {
    if (statSync(file).size > 20 * 1024 * 1024) continue;
    const text = readFileSync(file, "latin1");
    for (const path of machinePaths) {
      if (text.includes(path)) problems.push(`${name}: ${file.slice(into.length + 1)} holds the build machine's path ${path}`);
    }
  }
  return problems;
}

/** The package a bare specifier names: `@scope/name` or `name` (`node:` builtins are Node's own). */
const packageOf = (specifier) => (specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]);

/** Whether an installed package carries its own type declarations (else they come from @types/). */
function shipsTypes(root, dependency) {
  const dir = join(root, "node_modules", dependency);
  if (!existsSync(join(dir, "package.json"))) return true; // not installed here: nothing to judge by
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return Boolean(manifest.types ?? manifest.typings) || existsSync(join(dir, "index.d.ts")) || JSON.stringify(manifest.exports ?? {}).includes('"types"');
}

/**
 * Every package a tarball's type declarations import (or reference) that its package.json does not
 * depend on — or, for a package without its own declarations, whose `@types/` package it does not
 * depend on: a consumer would get TS7016 or a silent `any` there.
 */
export function undeclaredTypeImports(name, dir, root) {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
  const problems = [];
  for (const file of filesUnder(dir).filter((f) => /\.d\.[cm]?ts$/.test(f))) {
    const text = readFileSync(file, "utf8");
    const imported = [
      ...[...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"'.][^"']*)["']/gm)].map((m) => packageOf(m[1])),
      ...[...text.matchAll(/\/\/\/\s*<reference\s+types="([^"]+)"/g)].map((m) => `@types/${packageOf(m[1])}`),
    ];
    for (const dependency of new Set(imported)) {
      if (dependency.startsWith("node:") || dependency === name) continue;
      const where = `${name}: ${file.slice(dir.length + 1)} imports ${dependency}`;
      if (!declared.has(dependency)) problems.push(`${where}, which is not among its dependencies`);
      else if (!dependency.startsWith("@types/") && !shipsTypes(root, dependency) && !declared.has(`@types/${dependency.replace(/^@(.*)\//, "$1__")}`)) {
        problems.push(`${where}, whose types come from @types/${dependency.replace(/^@(.*)\//, "$1__")}: not among its dependencies`);
      }
    }
  }
  return problems;
}

/** The version of a package installed at the repository's root, so the app installs it from npm's cache. */
export function rootVersion(root, name) {
  return JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;
}

/**
 * Creates the consumer's app in `dir`: an ESM project depending on every tarball (each @lathe/*
 * dependency between them resolved to its tarball, never to the registry) and on `extras`
 * (name → version), installed without install scripts, from npm's cache where it can.
 */
export function installApp(dir, tarballs, extras) {
  mkdirSync(dir, { recursive: true });
  const local = Object.fromEntries(tarballs.map(({ name, tarball }) => [name, `file:${tarball}`]));
  const manifest = { name: "lathe-consumer-app", private: true, type: "module", dependencies: { ...local, ...extras }, overrides: local };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  run("npm", ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir });
}
