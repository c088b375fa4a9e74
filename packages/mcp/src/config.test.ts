import { describe, expect, it } from "vitest";
import { McpConfigError } from "./errors.js";
import { mcpTools } from "./mcp-tool-source.js";

function configError(options: unknown): McpConfigError {
  try {
    mcpTools(options as never);
  } catch (error) {
    if (error instanceof McpConfigError) return error;
    throw error;
  }
  throw new Error("no error");
}

describe("mcpTools options", () => {
  it("accepts stdio and HTTP servers without starting anything", async () => {
    const source = mcpTools({
      servers: { local: { command: "node", args: ["server.js"], env: { A: "1" }, cwd: "/tmp" }, remote: { url: "http://127.0.0.1:1/mcp", headers: { X: "y" } } },
      timeoutMs: 1000,
    });
    expect(source.status()).toEqual({
      local: { state: "idle", transport: "stdio", tools: [], connects: 0 },
      remote: { state: "idle", transport: "http", tools: [], connects: 0 },
    });
    await source.close();
  });

  it("names the server and the problem", () => {
    expect(configError({ servers: { a: {} } })).toMatchObject({ server: "a", reason: expect.stringMatching(/command.*url/) });
    expect(configError({ servers: { b: { url: "not a url" } } })).toMatchObject({ server: "b", reason: expect.stringMatching(/^url:/) });
    expect(configError({ servers: { c: { command: "" } } })).toMatchObject({ server: "c", reason: expect.stringMatching(/^command:/) });
    expect(configError({ servers: { d: { command: "x", url: "http://h/" } } })).toMatchObject({ server: "d", reason: expect.stringMatching(/url/) });
    expect(configError({ servers: { e: { command: "x", args: "--flag" } } })).toMatchObject({ server: "e", reason: expect.stringMatching(/^args:/) });
    expect(configError({ servers: { f: "npx server" } }).server).toBe("f");
    expect(configError({ servers: { g: { url: "http://h/" } }, timeoutMs: -1 })).toMatchObject({ server: undefined, reason: expect.stringMatching(/^timeoutMs:/) });
    expect(configError({})).toMatchObject({ server: undefined, reason: expect.stringMatching(/^servers:/) });
    expect(configError({ servers: { a: {} } }).message).toMatch(/^Invalid MCP server "a": /);
  });
});
