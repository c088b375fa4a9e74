// A streamable-HTTP MCP server for this package's tests, built with the SDK; not part of the public API.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";

/** What the test server saw. */
export interface HttpTestServer {
  url: string;
  /** Headers of every request. */
  headers: IncomingHttpHeaders[];
  /** Tools called, in order. */
  calls: string[];
  /** Sessions opened and closed by the client (DELETE). */
  sessions: { opened: number; terminated: number };
  /** Calls of `hang` whose cancellation the server received. */
  cancelled: number;
  /** Forgets every session, as a restarted server would. */
  dropSessions(): void;
  /** Stops listening and cuts every connection. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

function buildServer(seen: HttpTestServer): McpServer {
  const server = new McpServer({ name: "test-http", version: "1.0.0" });
  server.registerTool(
    "add",
    { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() }, annotations: { readOnlyHint: true } },
    async ({ a, b }) => {
      seen.calls.push("add");
      return { content: [{ type: "text", text: `${a + b}` }], structuredContent: { sum: a + b } };
    },
  );
  server.registerTool("fail", { description: "Always reports a failure." }, async () => {
    seen.calls.push("fail");
    return { isError: true, content: [{ type: "text", text: "the widget is broken" }] };
  });
  server.registerTool("throws", { description: "Throws inside the handler." }, async () => {
    seen.calls.push("throws");
    throw new Error("kaboom");
  });
  server.registerTool("hang", { description: "Never answers until cancelled." }, async (extra) => {
    seen.calls.push("hang");
    await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve(), { once: true }));
    seen.cancelled++;
    return { content: [{ type: "text", text: "cancelled" }] };
  });
  server.registerTool("picture", { description: "Returns an image and a binary resource." }, async () => {
    seen.calls.push("picture");
    return {
      content: [
        { type: "text", text: "a pixel and its bytes" },
        { type: "image", data: PIXEL, mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///data/pixel.bin", mimeType: "application/octet-stream", blob: "AAEC" } },
      ],
    };
  });
  server.registerTool("weird.name", { description: "A name with a dot." }, async () => {
    seen.calls.push("weird.name");
    return { content: [{ type: "text", text: "ok" }] };
  });
  return server;
}

/** Starts the test server on a loopback port. */
export async function startHttpTestServer(): Promise<HttpTestServer> {
  let transports = new Map<string, StreamableHTTPServerTransport>();
  let http: Server;
  let port = 0;
  const seen: HttpTestServer = {
    url: "",
    headers: [],
    calls: [],
    sessions: { opened: 0, terminated: 0 },
    cancelled: 0,
    dropSessions: () => {
      transports = new Map();
    },
    stop: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
    restart: () => listen(),
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      http = createServer(async (req, res) => {
        seen.headers.push(req.headers);
        const id = req.headers["mcp-session-id"];
        const known = typeof id === "string" ? transports.get(id) : undefined;
        if (known) return known.handleRequest(req, res);
        if (id !== undefined) {
          res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
          return;
        }
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => {
            seen.sessions.opened++;
            transports.set(sessionId, transport);
          },
          onsessionclosed: (sessionId) => {
            seen.sessions.terminated++;
            transports.delete(sessionId);
          },
        });
        await buildServer(seen).connect(transport);
        await transport.handleRequest(req, res);
      });
      http.listen(port, "127.0.0.1", () => {
        port = (http.address() as AddressInfo).port;
        seen.url = `http://127.0.0.1:${port}/mcp`;
        resolve();
      });
    });
  await listen();
  return seen;
}
