// Escape attempts from the bwrap sandbox, run as the test's user (root in CI) through the bash tool,
// and as an unprivileged user (nobody, through setpriv) with the same bubblewrap command line. Each
// attack is first shown to work without the sandbox, so a passing test means the sandbox stopped it.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import { homedir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOnPath } from "../find-executable.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { createBashTool } from "./bash.js";
import { bwrapCommand, bwrapIsolation, probeBwrap, socketVanished } from "./sandbox.js";

const bwrap = process.platform === "linux" ? findOnPath("bwrap") : undefined;
const canRun = (() => {
  try {
    return bwrap !== undefined && probeBwrap({ type: "bwrap" }) === bwrap;
  } catch {
    return false;
  }
})();
const isRoot = process.getuid?.() === 0;
const setpriv = findOnPath("setpriv");
const NOBODY = 65534;

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
let outside: string;
let socketPath: string;
let socketServer: NetServer;
let socketHits = 0;
let http: HttpServer;
let httpUrl: string;
let httpHits = 0;

beforeAll(async () => {
  if (!canRun) return;
  ws = await tempWorkspace();
  // Outside the workspace and outside /tmp (which the sandbox replaces), as a real host folder would
  // be, and reachable by every user (the unprivileged run's control must be able to write there).
  outside = await mkdtemp(path.join(existsSync("/var/tmp") ? "/var/tmp" : homedir(), "lathe-escape-"));
  chmodSync(outside, 0o777);
  socketPath = path.join(outside, "host.sock");
  socketServer = createNetServer((c) => {
    socketHits++;
    c.end("HOST-SOCKET\n");
  });
  await new Promise<void>((resolve) => socketServer.listen(socketPath, resolve));
  chmodSync(socketPath, 0o777);
  http = createHttpServer((_req, res) => {
    httpHits++;
    res.end("HOST-HTTP");
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  httpUrl = `http://127.0.0.1:${(http.address() as { port: number }).port}/`;
});

afterAll(async () => {
  if (!canRun) return;
  socketServer.close();
  http.close();
  await rm(outside, { recursive: true, force: true });
  await ws.cleanup();
});

/** The attacks, as one shell script; each prints a marker only when it succeeded. */
function attacks(): string {
  const node = process.execPath;
  const connect = `require('net').connect(${JSON.stringify(socketPath)}).on('data',d=>process.stdout.write('SOCKET:'+d)).on('error',()=>{})`;
  const fetchHost = `fetch(${JSON.stringify(httpUrl)}).then(r=>r.text()).then(t=>console.log('NET:'+t),()=>{})`;
  return [
    `mount -o remount,bind,rw / 2>/dev/null && echo REMOUNTED`,
    `unshare -Urm sh -c 'mount -o remount,bind,rw / && echo NESTED-REMOUNTED' 2>/dev/null`,
    `echo escaped > ${outside}/written.txt 2>/dev/null && echo WROTE-OUTSIDE`,
    `${node} -e ${shellQuote(connect)}`,
    `${node} -e ${shellQuote(fetchHost)}`,
    `grep CapEff /proc/self/status`,
    `ls /run/lathe-host-marker 2>/dev/null && echo SAW-RUN`,
    `echo inside > in-workspace.txt && echo WROTE-WORKSPACE`,
    `sleep 0.3`,
  ].join("; ");
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function expectContained(output: string): void {
  expect(output).not.toContain("REMOUNTED");
  expect(output).not.toContain("WROTE-OUTSIDE");
  expect(output).not.toContain("SOCKET:");
  expect(output).not.toContain("NET:");
  expect(output).not.toContain("SAW-RUN");
  expect(output).toMatch(/CapEff:\s+0000000000000000/);
  expect(output).toContain("WROTE-WORKSPACE");
}

async function runAs(uid: number | undefined, file: string, args: string[], cwd: string): Promise<string> {
  const [cmd, argv] = uid === undefined ? [file, args] : [setpriv!, [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--", file, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });
}

describe.runIf(canRun)("the bwrap sandbox holds", () => {
  it("the attacks work without a sandbox (the test can fail)", async () => {
    await writeFile("/run/lathe-host-marker", "x").catch(() => {});
    const output = await runAs(undefined, "/bin/sh", ["-c", attacks()], ws.dir);
    expect(output).toContain("WROTE-OUTSIDE");
    expect(output).toContain("SOCKET:HOST-SOCKET");
    expect(output).toContain("NET:HOST-HTTP");
    await rm(path.join(outside, "written.txt"), { force: true });
  });

  it(`as the test's own user (${isRoot ? "root" : "not root"}): no capabilities, no remount, no write outside, no host socket, no network`, async () => {
    const before = { socket: socketHits, http: httpHits };
    await writeFile("/run/lathe-host-marker", "x").catch(() => {});
    const result = await createBashTool({ sandbox: { type: "bwrap" } }).execute({ command: attacks() }, testContext(ws.dir));
    expect(result.metadata?.sandbox).toBe("bwrap");
    expectContained(result.output);
    expect(existsSync(path.join(outside, "written.txt"))).toBe(false);
    expect(await readFile(path.join(ws.dir, "in-workspace.txt"), "utf8")).toBe("inside\n");
    expect({ socket: socketHits, http: httpHits }).toEqual(before);
    // Where the kernel allows, an own user namespace in which no further one can be made.
    if (bwrapIsolation(bwrap!).includes("--unshare-user")) expect(result.output).not.toMatch(/NESTED-REMOUNTED/);
    await rm("/run/lathe-host-marker", { force: true });
  });

  it.runIf(isRoot && setpriv)("as an unprivileged user (nobody): the same attacks fail", async () => {
    const workspace = path.join(ws.dir, "nobody");
    await rm(workspace, { recursive: true, force: true });
    execFileSync("mkdir", ["-p", workspace]);
    chownSync(workspace, NOBODY, NOBODY);
    chmodSync(ws.dir, 0o711); // nobody must be able to pass through to its workspace
    // Control: as nobody, without the sandbox, the outside folder and the socket are reachable.
    const control = await runAs(NOBODY, "/bin/sh", ["-c", attacks()], workspace);
    expect(control).toContain("WROTE-OUTSIDE");
    expect(control).toContain("SOCKET:HOST-SOCKET");
    await rm(path.join(outside, "written.txt"), { force: true });

    const before = { socket: socketHits, http: httpHits };
    const command = bwrapCommand(bwrap!, { type: "bwrap" }, "/bin/sh", attacks(), workspace, workspace);
    const output = await runAs(NOBODY, command.file, command.args, workspace);
    expectContained(output);
    expect(existsSync(path.join(outside, "written.txt"))).toBe(false);
    expect({ socket: socketHits, http: httpHits }).toEqual(before);
  });

  it("a host socket that vanishes between the scan and the start is noticed, so the command can run again", async () => {
    const dir = await mkdtemp(path.join(outside, "vanish-"));
    const file = path.join(dir, "gone.sock");
    const server = createNetServer(() => {});
    await new Promise<void>((resolve) => server.listen(file, resolve));
    const command = bwrapCommand(bwrap!, { type: "bwrap" }, "/bin/sh", "echo ran", ws.dir, ws.dir);
    expect(command.args).toContain(file);
    await new Promise((resolve) => server.close(resolve));
    await rm(file, { force: true });
    const run = spawnSync(command.file, command.args, { encoding: "utf8" });
    const result = { exit: run.status, output: `${run.stdout}${run.stderr}` };
    expect(result.output).not.toContain("ran");
    expect(socketVanished(command, result)).toBe(true);
    expect(socketVanished(command, { exit: 1, output: "bwrap: Can't create file at /elsewhere: x" })).toBe(false);
  });

  it("the sandbox ends with the process that started it", async () => {
    // A parent that starts the sandbox and is then killed outright: the sandboxed sleep must not outlive it.
    const command = bwrapCommand(bwrap!, { type: "bwrap" }, "/bin/sh", "echo $$ > pid; exec sleep 47.31", ws.dir, ws.dir);
    const parent = spawn(process.execPath, ["-e", `require('child_process').spawn(${JSON.stringify(command.file)}, ${JSON.stringify(command.args)}, { stdio: 'ignore' }); setInterval(() => {}, 1000)`], { stdio: "ignore" });
    const marker = path.join(ws.dir, "pid");
    for (let i = 0; i < 100 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
    const sleepers = () => execFileSync("sh", ["-c", `pgrep -f '^sleep 47.31$' || true`], { encoding: "utf8" }).trim();
    expect(sleepers()).not.toBe("");
    parent.kill("SIGKILL");
    let left = sleepers();
    for (let i = 0; i < 50 && left; i++) {
      await new Promise((r) => setTimeout(r, 50));
      left = sleepers();
    }
    expect(left).toBe("");
  });
});
