import { spawn, type ChildProcess } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { childEnvironment } from "@lathe/tools";

/** What starts a stdio server. */
export interface StdioLaunch {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** How long each stage of closing (stdin closed, SIGTERM) waits before the next. Default 1,000 ms. */
  graceMs?: number;
}

const STDERR_TAIL = 2000;
const GROUPS = process.platform !== "win32";

/**
 * The stdio transport, with the server in a process group of its own. Servers are often started
 * through `npx` or a shell script, so the process Lathe spawns is not the one serving; closing the
 * group (stdin closed, then SIGTERM, then SIGKILL) leaves no orphans. The last lines the server wrote
 * to stderr are kept to explain a crash.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private closed: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private exitedAt: number | undefined;
  private tail = "";
  private readonly buffer = new ReadBuffer();

  constructor(private readonly launch: StdioLaunch) {}

  /** The spawned process's id (also its process group's id). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last ~2,000 characters the server wrote to stderr. */
  get stderr(): string {
    return this.tail;
  }

  /** Whether the server's process has ended (its stdio closed). */
  get exited(): boolean {
    return this.exitedAt !== undefined;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error("The stdio transport was already started.");
    const { command, args = [], env, cwd } = this.launch;
    const child = spawn(command, args, {
      cwd,
      // The same policy as shell commands: the host's environment without credentials, then `env`.
      env: { ...childEnvironment(), ...env },
      stdio: ["pipe", "pipe", "pipe"],
      detached: GROUPS,
      windowsHide: true,
    });
    this.child = child;
    this.closed = new Promise((resolve) => child.once("close", () => resolve()));
    child.once("close", () => {
      this.exitedAt = Date.now();
      this.buffer.clear();
      this.onclose?.();
    });
    child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
    child.stderr?.on("data", (chunk: Buffer) => {
      this.tail = (this.tail + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    // A write to a server that just died fails with EPIPE; the close event tells the rest.
    child.stdin?.on("error", (error) => this.onerror?.(error));
    child.stdout?.on("error", (error) => this.onerror?.(error));
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => {
        child.off("error", reject);
        child.on("error", (error) => this.onerror?.(error));
        resolve();
      });
      child.once("error", reject);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exited || this.closing) throw new Error("The server process is not running.");
    if (!stdin.write(serializeMessage(message))) await new Promise<void>((resolve) => stdin.once("drain", resolve));
  }

  /** Closes stdin and waits for the server to exit; SIGTERM, then SIGKILL, for a group that stays. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  /** Kills the server's whole process group at once (for a server that no longer responds). */
  kill(): Promise<void> {
    this.signal("SIGKILL");
    return this.close();
  }

  private async shutDown(): Promise<void> {
    const child = this.child;
    // A command that could not be started has no process to wait for.
    if (!child || child.pid === undefined) return;
    const grace = this.launch.graceMs ?? 1000;
    child.stdin?.end();
    if (!(await this.exitWithin(grace))) {
      this.signal("SIGTERM");
      if (!(await this.exitWithin(grace))) {
        this.signal("SIGKILL");
        await this.exitWithin(grace);
      }
    }
    await this.reapGroup(grace);
  }

  /** Ends processes the server left behind in its group after its own exit. */
  private async reapGroup(grace: number): Promise<void> {
    if (!GROUPS || !this.groupAlive()) return;
    this.signal("SIGTERM");
    const deadline = Date.now() + grace;
    while (this.groupAlive() && Date.now() < deadline) await delay(25);
    if (this.groupAlive()) this.signal("SIGKILL");
  }

  private receive(chunk: Buffer): void {
    this.buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC (a stray log on stdout): report it and read on.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private exitWithin(ms: number): Promise<boolean> {
    if (this.exited || !this.closed) return Promise.resolve(true);
    return Promise.race([this.closed.then(() => true), delay(ms).then(() => false)]);
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (GROUPS) process.kill(-pid, signal);
      else this.child?.kill(signal);
    } catch {
      // Already gone.
    }
  }

  private groupAlive(): boolean {
    const pid = this.child?.pid;
    if (pid === undefined) return false;
    try {
      process.kill(-pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
