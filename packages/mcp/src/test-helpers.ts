// Shared by this package's tests; not part of the public API.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Tool, ToolContext, ToolPermissionRequest } from "@lathe/tools";
import type { McpStdioServerConfig } from "./config.js";

const require = createRequire(import.meta.url);

/** The `bin` of `@modelcontextprotocol/server-everything`, resolved from its package.json. */
export function everythingBin(): string {
  const manifest = require.resolve("@modelcontextprotocol/server-everything/package.json");
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: string | Record<string, string> };
  const relative = typeof bin === "string" ? bin : Object.values(bin)[0]!;
  return path.join(path.dirname(manifest), relative);
}

/** The everything server over stdio, run by this Node (not npx). */
export function everythingServer(): McpStdioServerConfig {
  return { command: process.execPath, args: [everythingBin(), "stdio"] };
}

/** A tool context that records permission asks and progress; `deny` makes every ask fail. */
export function toolContext(options: { signal?: AbortSignal; deny?: boolean } = {}) {
  const asks: ToolPermissionRequest[] = [];
  const progress: unknown[] = [];
  const ctx: ToolContext = {
    sessionID: "ses_test",
    messageID: "msg_test",
    callID: "call_test",
    agent: "build",
    cwd: process.cwd(),
    abort: options.signal ?? new AbortController().signal,
    async ask(request) {
      asks.push(request);
      if (options.deny) throw new Error(`denied: ${request.permission}`);
    },
    metadata: (update) => progress.push(update),
    emit: () => {},
    state: <T>(_key: string, init: () => T) => init(),
  };
  return { ctx, asks, progress };
}

/** The tool called `name`, or a failed expectation. */
export function toolNamed(tools: Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${tools.map((t) => t.name).join(", ")}`);
  return tool;
}

/** Whether a process (or, with a negative id, a process group) still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live (non-zombie) processes of a process group. */
export function groupMembers(pgid: number): number[] {
  const out = execFileSync("ps", ["-e", "-o", "pid=,pgid=,stat="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, group, stat]) => Number(group) === pgid && stat !== undefined && !stat.startsWith("Z"))
    .map(([pid]) => Number(pid));
}

/** Waits until `check` holds, polling. */
export async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
