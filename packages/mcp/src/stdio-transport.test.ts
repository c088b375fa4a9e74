import { afterEach, describe, expect, it } from "vitest";
import { mcpTools, type McpToolSource } from "./mcp-tool-source.js";
import { ProcessGroupStdioTransport } from "./stdio-transport.js";
import { alive, eventually, everythingBin, groupMembers, toolContext, toolNamed } from "./test-helpers.js";

const node = JSON.stringify(process.execPath);
let source: McpToolSource | undefined;

afterEach(async () => {
  await source?.close();
  source = undefined;
});

describe("stdio servers run in their own process group", () => {
  it("closing a server started through a shell ends the shell, the server and what they left running", async () => {
    // The shell stays the parent: the MCP server is its child, and a stray `sleep` runs beside it.
    const script = `sleep 300 & ${node} ${JSON.stringify(everythingBin())} stdio; wait`;
    source = mcpTools({ servers: { wrapped: { command: "sh", args: ["-c", script] } } });
    const tools = await source.tools();
    expect((await toolNamed(tools, "wrapped_echo").execute({ message: "via sh" }, toolContext().ctx)).output).toBe("Echo: via sh");
    const pid = source.status().wrapped!.pid!;
    expect(groupMembers(pid).length).toBeGreaterThanOrEqual(3);
    await source.close();
    // Zombies are left out: orphans are reaped by init, which some containers lack.
    await eventually(() => groupMembers(pid).length === 0, 2000);
  });

  it("a server that ignores stdin closing and SIGTERM is killed", async () => {
    const stubborn = `process.on("SIGTERM", () => {}); process.stdin.resume(); process.stdin.on("end", () => {}); setInterval(() => {}, 1000);`;
    const transport = new ProcessGroupStdioTransport({ command: process.execPath, args: ["-e", stubborn], graceMs: 150 });
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    await transport.start();
    const pid = transport.pid!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await transport.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(closed).toBe(true);
    expect(transport.exited).toBe(true);
    expect(alive(pid)).toBe(false);
    await expect(transport.send({ jsonrpc: "2.0", method: "ping", id: 1 })).rejects.toThrow(/not running/);
  });

  it("keeps the end of the server's stderr, and names it when the server dies", async () => {
    const script = `process.stderr.write("fatal: missing API key\\n"); process.exit(1)`;
    source = mcpTools({ servers: { noisy: { command: process.execPath, args: ["-e", script] } } });
    expect(await source.tools()).toEqual([]);
    expect(source.status().noisy?.error).toMatch(/fatal: missing API key/);
  });

  it("passes the configured environment on the host's environment without credentials", async () => {
    process.env.LATHE_MCP_HOST_SECRET = "do-not-leak";
    process.env.LATHE_PROVIDER_API_KEY = "do-not-leak-key";
    process.env.LATHE_MCP_PLAIN = "plain-host-value";
    try {
      source = mcpTools({ servers: { env: { command: process.execPath, args: [everythingBin(), "stdio"], env: { LATHE_MCP_GIVEN: "given" } } } });
      const tools = await source.tools();
      const { output } = await toolNamed(tools, "env_get-env").execute({}, toolContext().ctx);
      expect(output).toContain("LATHE_MCP_GIVEN");
      expect(output).not.toContain("do-not-leak");
      expect(output).toContain("plain-host-value");
      expect(output).toContain("PATH");
    } finally {
      delete process.env.LATHE_MCP_HOST_SECRET;
      delete process.env.LATHE_PROVIDER_API_KEY;
      delete process.env.LATHE_MCP_PLAIN;
    }
  });

  it("a command that does not exist fails to start with ENOENT", async () => {
    const transport = new ProcessGroupStdioTransport({ command: "/nonexistent/server" });
    await expect(transport.start()).rejects.toThrow(/ENOENT/);
    await transport.close();
  });
});
