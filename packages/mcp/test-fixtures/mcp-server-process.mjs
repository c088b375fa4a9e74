// An MCP server in a process of its own, for tests that kill it (SIGKILL) or race its messages.
// `node mcp-server-process.mjs http [port]` serves streamable HTTP on 127.0.0.1 and prints
// `listening <port>` once ready; `node mcp-server-process.mjs stdio` serves stdio.
// Tools: `add`, `wait` (reports one progress step, then never answers), `steps` (sends `count`
// progress notifications and its result back to back), `notes` (content for the user and for the
// assistant only) and resources (one marked for the user only, a template, one that fails to read).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

function build() {
  const server = new McpServer({ name: "process-server", version: "1.0.0" });
  server.registerTool("add", { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  server.registerTool("wait", { description: "Reports progress once, then never answers." }, async (extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2, message: "started" } });
    await new Promise(() => {});
  });
  server.registerTool("steps", { description: "Sends `count` progress notifications, then its result.", inputSchema: { count: z.number() } }, async ({ count }, extra) => {
    const token = extra._meta?.progressToken;
    // Not awaited one by one: the notifications and the result leave in one burst, as a fast server sends them.
    const sent = [];
    for (let i = 1; i <= count; i++) sent.push(extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: count, message: `step ${i}` } }));
    await Promise.all(sent);
    return { content: [{ type: "text", text: `done after ${count} steps` }] };
  });
  server.registerTool("notes", { description: "Returns text for the model and text for the user only." }, async () => ({
    content: [
      { type: "text", text: "for everyone" },
      { type: "text", text: "user-only: 3 files changed (diff shown in the UI)", annotations: { audience: ["user"] } },
      { type: "text", text: "for the assistant", annotations: { audience: ["assistant"] } },
      { type: "resource", resource: { uri: "mem://secret.txt", mimeType: "text/plain", text: "user-only resource" }, annotations: { audience: ["user"] } },
    ],
  }));
  server.registerResource("readme", "mem://readme.md", { title: "Read me", description: "The project's read-me.", mimeType: "text/markdown" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/markdown", text: "# Hello\nFrom the server." }],
  }));
  server.registerResource("logo", "mem://logo.png", { mimeType: "image/png", annotations: { audience: ["user"], priority: 0.2 } }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "image/png", blob: "iVBORw0KGgo=" }],
  }));
  server.registerResource("both", "mem://both.txt", { mimeType: "text/plain", annotations: { audience: ["user", "assistant"] } }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "for both" }],
  }));
  server.registerResource(
    "note",
    new ResourceTemplate("mem://notes/{id}", { list: async () => ({ resources: [1, 2, 3].map((id) => ({ uri: `mem://notes/${id}`, name: `note ${id}` })) }) }),
    { description: "A note." },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `note ${id}` }] }),
  );
  server.registerResource("broken", "mem://broken", {}, async () => {
    throw new Error("the disk is on fire");
  });
  return server;
}

const [mode, portArg] = process.argv.slice(2);
if (mode === "stdio") {
  await build().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(req, res);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
    });
    await build().connect(transport);
    await transport.handleRequest(req, res);
  });
  http.listen(Number(portArg ?? 0), "127.0.0.1", () => process.stdout.write(`listening ${http.address().port}\n`));
}
