import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpAbortedError, McpCallError, McpTimeoutError, McpToolError } from "./errors.js";
import { startHttpTestServer, type HttpTestServer } from "./http-test-server.js";
import { mcpTools, type McpToolSource } from "./mcp-tool-source.js";
import { eventually, toolContext, toolNamed } from "./test-helpers.js";

let server: HttpTestServer;
let source: McpToolSource;

beforeEach(async () => {
  server = await startHttpTestServer();
});

afterEach(async () => {
  await source?.close();
  await server.stop();
});

function connect(options: { timeoutMs?: number; headers?: Record<string, string> } = {}): McpToolSource {
  source = mcpTools({
    servers: { remote: { url: server.url, ...(options.headers ? { headers: options.headers } : {}) } },
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  return source;
}

describe("mcpTools over streamable HTTP (an SDK server in the test)", () => {
  it("lists and calls tools, sending the configured headers", async () => {
    const tools = await connect({ headers: { Authorization: "Bearer s3cret" } }).tools();
    expect(tools.map((t) => t.name).sort()).toEqual(["remote_add", "remote_fail", "remote_hang", "remote_picture", "remote_throws", "remote_weird_name"]);
    const result = await toolNamed(tools, "remote_add").execute({ a: 2, b: 40 }, toolContext().ctx);
    expect(result.output).toBe("42");
    expect(result.metadata).toMatchObject({ server: "remote", tool: "add", structuredContent: { sum: 42 } });
    expect(server.headers.length).toBeGreaterThan(0);
    expect(server.headers.every((h) => h.authorization === "Bearer s3cret")).toBe(true);
    expect(source.status().remote).toMatchObject({ state: "connected", transport: "http", connects: 1 });
    expect(source.status().remote?.pid).toBeUndefined();
  });

  it("calls a tool whose name had to be sanitised by its server-side name", async () => {
    const tools = await connect().tools();
    const result = await toolNamed(tools, "remote_weird_name").execute({}, toolContext().ctx);
    expect(result.output).toBe("ok");
    expect(server.calls).toEqual(["weird.name"]);
  });

  it("an isError result, or a handler that throws, becomes McpToolError with the server's text", async () => {
    const tools = await connect().tools();
    const { ctx } = toolContext();
    await expect(toolNamed(tools, "remote_fail").execute({}, ctx)).rejects.toThrow(new McpToolError("remote", "fail", "the widget is broken"));
    await expect(toolNamed(tools, "remote_throws").execute({}, ctx)).rejects.toThrow(/kaboom/);
    // The server answered: the connection is kept.
    expect(source.status().remote).toMatchObject({ state: "connected", connects: 1 });
  });

  it("images and embedded binary resources become attachments", async () => {
    const tools = await connect().tools();
    const result = await toolNamed(tools, "remote_picture").execute({}, toolContext().ctx);
    expect(result.attachments).toEqual([
      { mime: "image/png", url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) },
      { mime: "application/octet-stream", url: "data:application/octet-stream;base64,AAEC", filename: "pixel.bin" },
    ]);
    expect(result.output).toBe(
      "a pixel and its bytes\n\n[image attached: image/png]\n\n[resource attached: file:///data/pixel.bin (application/octet-stream)]",
    );
  });

  it("a call that hangs times out, the server is told to cancel, and the connection is kept", async () => {
    const tools = await connect({ timeoutMs: 300 }).tools();
    const error = await toolNamed(tools, "remote_hang")
      .execute({}, toolContext().ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpTimeoutError);
    expect((error as Error).message).toMatch(/timed out: no answer within 300 ms/);
    expect(error).toMatchObject({ unresponsive: false });
    await eventually(() => server.cancelled === 1);
    expect((await toolNamed(tools, "remote_add").execute({ a: 1, b: 1 }, toolContext().ctx)).output).toBe("2");
    expect(source.status().remote?.connects).toBe(1);
  });

  it("an aborted call rejects at once and the server is told to cancel", async () => {
    const tools = await connect().tools();
    const controller = new AbortController();
    const call = toolNamed(tools, "remote_hang").execute({}, toolContext({ signal: controller.signal }).ctx);
    await eventually(() => server.calls.includes("hang"));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(McpAbortedError);
    await eventually(() => server.cancelled === 1);
  });

  it("a call already aborted never reaches the server", async () => {
    const tools = await connect().tools();
    const controller = new AbortController();
    controller.abort();
    await expect(toolNamed(tools, "remote_add").execute({ a: 1, b: 2 }, toolContext({ signal: controller.signal }).ctx)).rejects.toBeInstanceOf(
      McpAbortedError,
    );
    expect(server.calls).toEqual([]);
  });

  it("a server that went down gives a tool error; once it is back, the next call reconnects", async () => {
    const tools = await connect().tools();
    await server.stop();
    const error = await toolNamed(tools, "remote_add")
      .execute({ a: 1, b: 2 }, toolContext().ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpCallError);
    expect(error).toMatchObject({ reconnect: true });
    expect(source.status().remote?.state).toBe("disconnected");
    await server.restart();
    expect((await toolNamed(tools, "remote_add").execute({ a: 1, b: 2 }, toolContext().ctx)).output).toBe("3");
    expect(source.status().remote).toMatchObject({ state: "connected", connects: 2 });
  });

  it("a server that dies during a call gives a tool error, and the next call reconnects", async () => {
    const tools = await connect({ timeoutMs: 10_000 }).tools();
    const call = toolNamed(tools, "remote_hang").execute({}, toolContext().ctx);
    await eventually(() => server.calls.includes("hang"));
    const stopped = Date.now();
    await server.stop();
    // The cut response stream is a transport error: the server is probed, does not answer, and the
    // call fails at once rather than at its silence timeout.
    const error = await call.catch((e: unknown) => e);
    expect(Date.now() - stopped).toBeLessThan(1000);
    expect(error).toBeInstanceOf(McpCallError);
    expect(error).toMatchObject({ reconnect: true });
    expect(source.status().remote?.state).toBe("disconnected");
    await server.restart();
    expect((await toolNamed(tools, "remote_add").execute({ a: 5, b: 5 }, toolContext().ctx)).output).toBe("10");
    expect(source.status().remote?.connects).toBe(2);
  });

  it("a server that forgot the session (restarted) gives a tool error, then a fresh session", async () => {
    const tools = await connect().tools();
    server.dropSessions();
    await expect(toolNamed(tools, "remote_add").execute({ a: 1, b: 2 }, toolContext().ctx)).rejects.toBeInstanceOf(McpCallError);
    expect((await toolNamed(tools, "remote_add").execute({ a: 2, b: 2 }, toolContext().ctx)).output).toBe("4");
    expect(server.sessions.opened).toBe(2);
  });

  it("close terminates the HTTP session", async () => {
    await connect().tools();
    expect(server.sessions).toEqual({ opened: 1, terminated: 0 });
    await source.close();
    expect(server.sessions).toEqual({ opened: 1, terminated: 1 });
    expect(source.status().remote?.state).toBe("closed");
  });

  it("an unreachable server is reported as failed and retried by the next tools() call", async () => {
    await server.stop();
    const tools = await connect().tools();
    expect(tools).toEqual([]);
    expect(source.status().remote).toMatchObject({ state: "failed", connects: 0 });
    expect(source.status().remote?.error).toBeTruthy();
    await server.restart();
    expect((await source.tools()).map((t) => t.name)).toContain("remote_add");
    expect(source.status().remote).toMatchObject({ state: "connected", connects: 1 });
  });
});
