import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { McpAbortedError, McpCallError, McpClosedError, McpInputError, McpTimeoutError } from "./errors.js";
import { mcpTools, type McpToolSource } from "./mcp-tool-source.js";
import { alive, eventually, everythingServer, toolContext, toolNamed } from "./test-helpers.js";

const sources: McpToolSource[] = [];
function everything(options: { timeoutMs?: number } = {}): McpToolSource {
  const source = mcpTools({ servers: { everything: everythingServer() }, ...options });
  sources.push(source);
  return source;
}

afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
});

describe("mcpTools over stdio (server-everything)", () => {
  it("lists the server's tools as <server>_<tool> with the server's descriptions and JSON schemas", async () => {
    const source = everything();
    const tools = await source.tools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["everything_echo", "everything_get-sum", "everything_get-tiny-image"]));
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const echo = toolNamed(tools, "everything_echo");
    expect(echo.description).toMatch(/echo/i);
    expect(echo.readOnly).toBe(true);
    // The model sees the server's schema verbatim.
    expect(z.toJSONSchema(echo.parameters)).toMatchObject({
      type: "object",
      properties: { message: { type: "string", description: "Message to echo" } },
      required: ["message"],
    });
    // And the schema validates: wrong types and missing fields fail, right input passes.
    expect(echo.parameters.safeParse({ message: "hi" }).success).toBe(true);
    expect(echo.parameters.safeParse({ message: 5 }).success).toBe(false);
    expect(echo.parameters.safeParse({}).success).toBe(false);
    const status = source.status().everything!;
    expect(status).toMatchObject({ state: "connected", transport: "stdio", connects: 1 });
    expect(status.tools).toContain("everything_echo");
    expect(alive(status.pid!)).toBe(true);
  });

  it("calls tools, asking permission under the tool's name", async () => {
    const tools = await everything().tools();
    const { ctx, asks } = toolContext();
    const echo = await toolNamed(tools, "everything_echo").execute({ message: "hi" }, ctx);
    expect(echo.output).toBe("Echo: hi");
    expect(echo.metadata).toMatchObject({ server: "everything", tool: "echo", truncated: false });
    expect(asks).toEqual([
      expect.objectContaining({ permission: "everything_echo", patterns: ["*"], metadata: expect.objectContaining({ server: "everything", tool: "echo" }) }),
    ]);
    const sum = await toolNamed(tools, "everything_get-sum").execute({ a: 2, b: 3 }, ctx);
    expect(sum.output).toContain("5");
  });

  it("a denied permission stops the call before it reaches the server", async () => {
    const tools = await everything().tools();
    const { ctx } = toolContext({ deny: true });
    await expect(toolNamed(tools, "everything_echo").execute({ message: "hi" }, ctx)).rejects.toThrow("denied: everything_echo");
  });

  it("input that breaks the server's schema fails with McpInputError, before asking", async () => {
    const tools = await everything().tools();
    const { ctx, asks } = toolContext();
    const call = toolNamed(tools, "everything_get-sum").execute({ a: "two" }, ctx);
    await expect(call).rejects.toBeInstanceOf(McpInputError);
    await expect(call).rejects.toThrow(/get-sum/);
    expect(asks).toEqual([]);
  });

  it("an image result becomes an attachment with a data: URL", async () => {
    const tools = await everything().tools();
    const result = await toolNamed(tools, "everything_get-tiny-image").execute({}, toolContext().ctx);
    expect(result.attachments).toHaveLength(1);
    const image = result.attachments![0]!;
    expect(image.mime).toBe("image/png");
    expect(image.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(result.output).toContain("[image attached: image/png]");
  });

  it("an embedded resource becomes an attachment", async () => {
    const tools = await everything().tools();
    const result = await toolNamed(tools, "everything_get-resource-reference").execute({ resourceType: "Text", resourceId: 1 }, toolContext().ctx);
    expect(result.attachments?.length).toBe(1);
    const resource = result.attachments![0]!;
    expect(resource.url).toMatch(/^data:[^;]+;base64,/);
    expect(result.output).toMatch(/\[resource attached: \S+/);
  });

  it("a server that crashes mid-call gives a tool error, and the next call reconnects", async () => {
    const source = everything();
    const tools = await source.tools();
    const { ctx } = toolContext();
    const pid = source.status().everything!.pid!;
    const long = toolNamed(tools, "everything_trigger-long-running-operation").execute({ duration: 30, steps: 30 }, ctx);
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(pid, "SIGKILL");
    const error = await long.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpCallError);
    expect((error as McpCallError).reconnect).toBe(true);
    expect((error as Error).message).toMatch(/restarted on the next call/);
    expect(source.status().everything?.state).toBe("disconnected");

    const again = await toolNamed(tools, "everything_echo").execute({ message: "back" }, ctx);
    expect(again.output).toBe("Echo: back");
    const status = source.status().everything!;
    expect(status).toMatchObject({ state: "connected", connects: 2 });
    expect(status.pid).not.toBe(pid);
  });

  it("a server killed between calls is restarted by the next call", async () => {
    const source = everything();
    const tools = await source.tools();
    const pid = source.status().everything!.pid!;
    process.kill(pid, "SIGKILL");
    await eventually(() => source.status().everything?.state === "disconnected");
    const result = await toolNamed(tools, "everything_echo").execute({ message: "again" }, toolContext().ctx);
    expect(result.output).toBe("Echo: again");
    expect(source.status().everything?.connects).toBe(2);
  });

  it("a hung server times out; it fails a ping, so it is killed and the next call starts a fresh one", async () => {
    const source = everything({ timeoutMs: 400 });
    const tools = await source.tools();
    const pid = source.status().everything!.pid!;
    process.kill(pid, "SIGSTOP");
    const started = Date.now();
    const error = await toolNamed(tools, "everything_echo")
      .execute({ message: "hello?" }, toolContext().ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 400, unresponsive: true });
    expect(Date.now() - started).toBeLessThan(5000);
    await eventually(() => !alive(pid));
    const result = await toolNamed(tools, "everything_echo").execute({ message: "hi" }, toolContext().ctx);
    expect(result.output).toBe("Echo: hi");
    expect(source.status().everything?.connects).toBe(2);
  });

  it("a slow call times out while the server stays connected", async () => {
    const source = everything({ timeoutMs: 300 });
    const tools = await source.tools();
    const pid = source.status().everything!.pid!;
    // One step of 20 s: no progress arrives within the timeout.
    const error = await toolNamed(tools, "everything_trigger-long-running-operation")
      .execute({ duration: 20, steps: 1 }, toolContext().ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpTimeoutError);
    expect(error).toMatchObject({ unresponsive: false });
    expect(source.status().everything).toMatchObject({ state: "connected", pid, connects: 1 });
  });

  it("progress reports reach the tool context and keep a long call within its timeout alive", async () => {
    const source = everything({ timeoutMs: 800 });
    const tools = await source.tools();
    const { ctx, progress } = toolContext();
    // 2 s in 4 steps: longer than the timeout, but never silent for that long.
    const result = await toolNamed(tools, "everything_trigger-long-running-operation").execute({ duration: 2, steps: 4 }, ctx);
    expect(result.output).toMatch(/completed/i);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress[0]).toMatchObject({ metadata: { progress: 1, total: 4 } });
  });

  it("an aborted call stops at once with McpAbortedError; the server stays usable", async () => {
    const source = everything();
    const tools = await source.tools();
    const controller = new AbortController();
    const { ctx } = toolContext({ signal: controller.signal });
    const call = toolNamed(tools, "everything_trigger-long-running-operation").execute({ duration: 20, steps: 1 }, ctx);
    setTimeout(() => controller.abort("user stop"), 100);
    const started = Date.now();
    await expect(call).rejects.toBeInstanceOf(McpAbortedError);
    expect(Date.now() - started).toBeLessThan(2000);
    const echo = await toolNamed(tools, "everything_echo").execute({ message: "still here" }, toolContext().ctx);
    expect(echo.output).toBe("Echo: still here");
    expect(source.status().everything?.connects).toBe(1);
  });

  it("close leaves no child process and refuses further calls", async () => {
    const source = everything();
    const tools = await source.tools();
    const pid = source.status().everything!.pid!;
    expect(alive(pid)).toBe(true);
    await source.close();
    expect(alive(pid)).toBe(false);
    expect(alive(-pid)).toBe(false);
    expect(source.status().everything).toMatchObject({ state: "closed" });
    expect(source.status().everything?.pid).toBeUndefined();
    await expect(toolNamed(tools, "everything_echo").execute({ message: "x" }, toolContext().ctx)).rejects.toBeInstanceOf(McpClosedError);
    await expect(source.tools()).rejects.toBeInstanceOf(McpClosedError);
    await source.close();
  });

  it("a server that cannot start is left out and reported; the other servers' tools still come", async () => {
    const source = mcpTools({
      servers: { everything: everythingServer(), broken: { command: "/nonexistent/mcp-server" }, dies: { command: process.execPath, args: ["-e", "process.exit(3)"] } },
    });
    sources.push(source);
    const tools = await source.tools();
    expect(tools.some((t) => t.name === "everything_echo")).toBe(true);
    expect(tools.some((t) => t.name.startsWith("broken_") || t.name.startsWith("dies_"))).toBe(false);
    const status = source.status();
    expect(status.broken).toMatchObject({ state: "failed", tools: [] });
    expect(status.broken?.error).toMatch(/ENOENT/);
    expect(status.dies).toMatchObject({ state: "failed" });
    expect(status.dies?.error).toMatch(/closed/i);
  });
});
