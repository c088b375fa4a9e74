// What the formatter and server lookups pick in trusted and untrusted workspaces, against the
// hostile-repository fixture: nothing the repository controls unless trusted, nothing above the root.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hostileRepository, type HostileRepository } from "../../../test/fixtures/hostile-repository.js";
import { formatterFor } from "./formatters.js";
import { BUILTIN_SERVERS, hostServer } from "./servers.js";

let repo: HostileRepository | undefined;
const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
  repo?.cleanup();
});

const server = (id: string) => BUILTIN_SERVERS.find((s) => s.id === id)!;
const inside = (dir: string, file: string | undefined) => file !== undefined && !path.relative(dir, file).startsWith("..");

describe("formatter lookup", () => {
  it("untrusted: no prettier (its configs and plugins execute code), black only from the host's PATH", () => {
    repo = hostileRepository();
    expect(formatterFor(path.join(repo.ws, "src/a.ts"), repo.ws, {}, false)).toBeUndefined();
    const black = formatterFor(path.join(repo.ws, "src/a.py"), repo.ws, {}, false);
    expect(inside(repo.root, black?.invocation.command)).toBe(false);
    expect(black?.env?.PATH?.split(path.delimiter).some((dir) => inside(repo!.ws, dir) || !path.isAbsolute(dir))).not.toBe(true);
  });

  it("trusted: the repository's prettier and virtualenv black", () => {
    repo = hostileRepository();
    expect(formatterFor(path.join(repo.ws, "src/a.ts"), repo.ws, {}, true)?.invocation.command).toBe(path.join(repo.ws, "node_modules/.bin/prettier"));
    expect(formatterFor(path.join(repo.ws, "src/a.py"), repo.ws, {}, true)?.invocation.command).toBe(path.join(repo.ws, ".venv/bin/black"));
  });

  it("trusted or not, nothing is looked for above the workspace root", () => {
    repo = hostileRepository();
    // A workspace inside the repository with its own prettier config but no binary: the ones above stay unused.
    const sub = path.join(repo.ws, "sub");
    mkdirSync(sub);
    writeFileSync(path.join(sub, ".prettierrc"), "{}");
    writeFileSync(path.join(sub, "pyproject.toml"), "[tool.black]\n");
    process.env.PATH = "/nonexistent";
    expect(formatterFor(path.join(sub, "a.ts"), sub, {}, true)).toBeUndefined();
    expect(formatterFor(path.join(sub, "a.py"), sub, {}, true)).toBeUndefined();
  });

  it("a host formatter's bare name skips PATH entries that are relative or inside the workspace", () => {
    repo = hostileRepository();
    process.env.PATH = [path.join(repo.ws, "tools"), "tools", "."].join(path.delimiter);
    expect(formatterFor(path.join(repo.ws, "a.txt"), repo.ws, { hostfmt: { command: ["hostfmt"], extensions: [".txt"] } }, true)).toBeUndefined();
    process.env.PATH = [path.join(repo.ws, "tools"), path.join(repo.root, "hostbin")].join(path.delimiter);
    mkdirSync(path.join(repo.root, "hostbin"));
    writeFileSync(path.join(repo.root, "hostbin/hostfmt"), "#!/bin/sh\ncat\n", { mode: 0o755 });
    expect(formatterFor(path.join(repo.ws, "a.txt"), repo.ws, { hostfmt: { command: ["hostfmt"], extensions: [".txt"] } }, false)?.invocation.command).toBe(path.join(repo.root, "hostbin/hostfmt"));
  });
});

describe("server lookup", () => {
  it("untrusted: Lathe's own TypeScript server and tsserver, never the repository's; no rust-analyzer", () => {
    repo = hostileRepository();
    const launch = server("typescript").launch(repo.ws, { cwd: repo.ws, trusted: false })!;
    expect(inside(repo.root, launch.invocation.args[0] ?? launch.invocation.command)).toBe(false);
    const tsserver = (launch.initializationOptions as { tsserver: { path: string } }).tsserver.path;
    expect(inside(repo.root, tsserver)).toBe(false);
    expect(server("rust-analyzer").launch(repo.ws, { cwd: repo.ws, trusted: false })).toBeUndefined();
  });

  it("trusted: the repository's server and tsserver", () => {
    repo = hostileRepository();
    const launch = server("typescript").launch(repo.ws, { cwd: repo.ws, trusted: true })!;
    expect(launch.invocation.command).toBe(path.join(repo.ws, "node_modules/.bin/typescript-language-server"));
    expect((launch.initializationOptions as { tsserver: { path: string } }).tsserver.path).toBe(path.join(repo.ws, "node_modules/typescript/lib/tsserver.js"));
  });

  it("a host server's bare name is looked up on the host's PATH only", () => {
    repo = hostileRepository();
    process.env.PATH = [path.join(repo.ws, "tools"), "tools"].join(path.delimiter);
    expect(hostServer("mine", { command: ["hostfmt"], extensions: [".txt"] }).launch(repo.ws, { cwd: repo.ws, trusted: true })).toBeUndefined();
  });
});
