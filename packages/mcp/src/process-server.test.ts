// An MCP server in a child process of its own (test-fixtures/mcp-server-process.mjs): killed with
// SIGKILL mid-call over streamable HTTP, and racing its progress notifications against its result.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpCallError, McpConnectError } from "./errors.js";
import { mcpTools, type McpToolSource } from "./mcp-tool-source.js";
import { eventually, toolContext, toolNamed } from "./test-helpers.js";

const SCRIPT = fileURLToPath(new URL("../test-fixtures/mcp-server-process.mjs", import.meta.url));
const children: ChildProcess[] = [];
let source: McpToolSource | undefined;

afterEach(async () => {
  await source?.close();
  source = undefined;
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** Starts the server over HTTP (on `port`, or any) and resolves with its port once it listens. */
function startHttp(port = 0): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [SCRIPT, "http", String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before listening`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve({ child, port: Number(match[1]) });
    });
  });
}

describe("a streamable-HTTP server in its own process", () => {
  it("killed with SIGKILL mid-call: the call fails within 1 s (not at the 60 s silence timeout); the next call reconnects", async () => {
    const first = await startHttp();
    source = mcpTools({ servers: { remote: { url: `http://127.0.0.1:${first.port}/mcp` } } });
    const tools = await source.tools();
    const { ctx, progress } = toolContext();
    const call = toolNamed(tools, "remote_wait").execute({}, ctx);
    const outcome = call.then(
      () => "answered",
      (error: unknown) => error,
    );
    await eventually(() => progress.length > 0);
    const killed = Date.now();
    first.child.kill("SIGKILL");
    const error = await outcome;
    const took = Date.now() - killed;
    expect(error).toBeInstanceOf(McpCallError);
    expect(error).toMatchObject({ reconnect: true });
    expect((error as Error).message).toMatch(/connection/i);
    expect(took).toBeLessThan(1000);
    expect(source.status().remote?.state).toBe("disconnected");

    // The server comes back on the same port: the next call opens a new session and works.
    await startHttp(first.port);
    expect((await toolNamed(tools, "remote_add").execute({ a: 20, b: 22 }, toolContext().ctx)).output).toBe("42");
    expect(source.status().remote).toMatchObject({ state: "connected", connects: 2 });
  });

  it("killed between calls: noticed without a call (its event stream broke); the next call fails at once, then reconnects", async () => {
    const first = await startHttp();
    source = mcpTools({ servers: { remote: { url: `http://127.0.0.1:${first.port}/mcp` } } });
    const tools = await source.tools();
    first.child.kill("SIGKILL");
    await eventually(() => source!.status().remote?.state === "disconnected", 2000);
    const started = Date.now();
    await expect(toolNamed(tools, "remote_add").execute({ a: 1, b: 1 }, toolContext().ctx)).rejects.toBeInstanceOf(McpConnectError);
    expect(Date.now() - started).toBeLessThan(1000);
    await startHttp(first.port);
    expect((await toolNamed(tools, "remote_add").execute({ a: 1, b: 1 }, toolContext().ctx)).output).toBe("2");
  });
});

describe("progress sent back to back with the result", () => {
  for (const transport of ["stdio", "http"] as const) {
    it(`over ${transport}: every notification reaches the tool part, the last one included`, async () => {
      const url = transport === "http" ? `http://127.0.0.1:${(await startHttp()).port}/mcp` : undefined;
      source = mcpTools({ servers: { s: url ? { url } : { command: process.execPath, args: [SCRIPT, "stdio"] } } });
      const tools = await source.tools();
      for (let round = 0; round < 5; round++) {
        const { ctx, progress } = toolContext();
        const result = await toolNamed(tools, "s_steps").execute({ count: 8 }, ctx);
        expect(result.output).toBe("done after 8 steps");
        expect(progress).toEqual(Array.from({ length: 8 }, (_, i) => ({ title: `step ${i + 1}`, metadata: { progress: i + 1, total: 8 } })));
        expect(result.metadata?.progress).toEqual(Array.from({ length: 8 }, (_, i) => ({ progress: i + 1, total: 8, message: `step ${i + 1}` })));
      }
    });
  }
});
