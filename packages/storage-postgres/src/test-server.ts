import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** A throwaway PostgreSQL server started by {@link startTestPostgres}. */
export interface TestPostgres {
  /** Connection string of the server's `postgres` database (superuser `lathe`, no password). */
  connectionString: string;
  /** The loopback port it listens on. */
  port: number;
  /** A new, empty database on the server; returns its connection string. */
  createDatabase(): Promise<string>;
  /** Stops the server and deletes its data directory. Calling it again does nothing. */
  stop(): Promise<void>;
}

/** Options of {@link startTestPostgres}. */
export interface TestPostgresOptions {
  /** Where `initdb` and `postgres` are; default: the newest `/usr/lib/postgresql/<version>/bin`. */
  binDir?: string;
  /** How long to wait for the server to accept connections; default 30,000 ms. */
  startTimeoutMs?: number;
}

/** The test server could not be started: binaries missing, `initdb` failed, or it never became ready. */
export class TestPostgresError extends Error {
  override readonly name = "TestPostgresError";
  /** The server's own output, when it got that far. */
  readonly log: string;

  constructor(message: string, log = "") {
    super(log ? `${message}\n--- postgres output ---\n${log.trim()}` : message);
    this.log = log;
  }
}

const DEBIAN_ROOT = "/usr/lib/postgresql";
const SUPERUSER = "lathe";

/** The newest `/usr/lib/postgresql/<version>/bin` holding `initdb` and `postgres`, if any. */
export function findPostgresBinDir(): string | undefined {
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((v) => existsSync(join(DEBIAN_ROOT, v, "bin", "initdb")) && existsSync(join(DEBIAN_ROOT, v, "bin", "postgres")))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions[0] === undefined ? undefined : join(DEBIAN_ROOT, versions[0], "bin");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, run its binaries as the `postgres` system user. */
function asServerUser(): { prefix: string[]; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  let uid: number;
  let gid: number;
  try {
    uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  } catch {
    throw new TestPostgresError("running as root and there is no 'postgres' user to run PostgreSQL as (Debian's postgresql package creates it)");
  }
  return { prefix: ["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--init-groups", "--"], uid, gid };
}

async function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Test utility: starts a private PostgreSQL server for a test run — `initdb` into a temp directory,
 * `postgres` listening on a free loopback port with its unix socket in that directory (as the
 * `postgres` user when running as root) — waits until it accepts connections, and returns how to
 * reach and stop it. It never falls back or skips: when the binaries are missing it throws
 * {@link TestPostgresError} saying how to install them (`npm test` runs `scripts/setup.mjs`, which does).
 *
 * ```ts
 * const server = await startTestPostgres();
 * const storage = new PostgresStorage({ connectionString: await server.createDatabase() });
 * // …
 * await server.stop();
 * ```
 */
export async function startTestPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  const binDir = options.binDir ?? findPostgresBinDir();
  if (!binDir || !existsSync(join(binDir, "initdb")) || !existsSync(join(binDir, "postgres"))) {
    throw new TestPostgresError(
      `PostgreSQL server binaries (initdb, postgres) not found in ${binDir ?? `${DEBIAN_ROOT}/<version>/bin`}. ` +
        "Install Debian's postgresql package (apt-get install postgresql); `npm test` runs scripts/setup.mjs, which installs it.",
    );
  }
  const user = asServerUser();
  const root = await mkdtemp(join(tmpdir(), "lathe-pg-"));
  const dataDir = join(root, "data");
  const cleanupRoot = () => rm(root, { recursive: true, force: true });
  const run = (cmd: string, args: string[]) => (user ? [user.prefix[0]!, [...user.prefix.slice(1), cmd, ...args]] : [cmd, args]) as [string, string[]];

  let child: ChildProcess | undefined;
  let output = "";
  try {
    if (user) await chown(root, user.uid, user.gid);
    const [initCmd, initArgs] = run(join(binDir, "initdb"), ["-D", dataDir, "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    try {
      execFileSync(initCmd, initArgs, { stdio: "pipe", encoding: "utf8" });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new TestPostgresError(`initdb failed: ${e.message}`, `${e.stdout ?? ""}${e.stderr ?? ""}`);
    }
    const port = await freePort();
    const [cmd, args] = run(join(binDir, "postgres"), [
      "-D", dataDir,
      "-p", String(port),
      "-k", root,
      "-c", "listen_addresses=127.0.0.1",
      // A test server: durability is not the point, speed is.
      "-c", "fsync=off",
      "-c", "synchronous_commit=off",
      "-c", "full_page_writes=off",
      "-c", "max_connections=200",
    ]);
    const server = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    child = server;
    server.stdout?.on("data", (d: Buffer) => (output += d.toString()));
    server.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    // The server must not keep the test process alive, nor outlive it when that exits normally.
    server.unref();
    (server.stdout as unknown as { unref?: () => void } | null)?.unref?.();
    (server.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    const killOnExit = () => server.kill("SIGKILL");
    process.once("exit", killOnExit);

    const connectionString = `postgresql://${SUPERUSER}@127.0.0.1:${port}/postgres`;
    await waitUntilReady(connectionString, server, options.startTimeoutMs ?? 30_000, () => output);

    let stopped = false;
    let databases = 0;
    return {
      connectionString,
      port,
      async createDatabase() {
        const name = `test_${process.pid}_${++databases}`;
        const client = new pg.Client({ connectionString });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${name}`);
        } finally {
          await client.end();
        }
        return `postgresql://${SUPERUSER}@127.0.0.1:${port}/${name}`;
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        process.removeListener("exit", killOnExit);
        server.kill("SIGINT"); // fast shutdown: disconnects clients, then exits
        if (!(await waitForExit(server, 10_000))) {
          server.kill("SIGKILL");
          await waitForExit(server, 5_000);
        }
        await cleanupRoot();
      },
    };
  } catch (error) {
    if (child) {
      child.kill("SIGKILL");
      await waitForExit(child, 5_000);
    }
    await cleanupRoot();
    throw error instanceof TestPostgresError ? error : new TestPostgresError(`PostgreSQL did not start: ${(error as Error).message}`, output);
  }
}

async function waitUntilReady(connectionString: string, server: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new TestPostgresError(`postgres exited (${server.exitCode ?? server.signalCode}) before accepting connections`, log());
    }
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
    }
    if (Date.now() - started > timeoutMs) throw new TestPostgresError(`postgres not ready after ${timeoutMs} ms`, log());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
