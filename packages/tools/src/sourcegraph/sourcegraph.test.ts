import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { tempWorkspace, testContext } from "../test-context.js";
import { createSourcegraphTool, SourcegraphError } from "./sourcegraph.js";

// A local server speaking Sourcegraph's streaming search format (text/event-stream).
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler;
let server: Server;
let url: string;
let requests: IncomingMessage[] = [];
let workspace: Awaited<ReturnType<typeof tempWorkspace>>;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workspace = await tempWorkspace();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await workspace.cleanup();
});
afterEach(() => {
  requests = [];
});

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

function stream(...events: string[]): Handler {
  return (_req, res) => {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    for (const e of events) res.write(e);
    res.end();
  };
}

const chunkMatch = (repository: string, path: string, firstLine: number, lines: string[], matched: number) => ({
  type: "content",
  repository,
  path,
  chunkMatches: [{ content: lines.join("\n"), contentStart: { offset: 0, line: firstLine, column: 0 }, ranges: [{ start: { offset: 0, line: matched, column: 0 }, end: { offset: 3, line: matched, column: 3 } }] }],
});

describe("sourcegraph tool", () => {
  it("returns matches grouped by repository and file, with line numbers and context; asks with the instance URL", async () => {
    handler = stream(
      event("progress", { done: false, matchCount: 0 }),
      event("matches", [
        chunkMatch("github.com/acme/lib", "src/fetch.ts", 9, ["// before", "export function fetchJson() {", "  return 1;"], 10),
        { type: "repo", repository: "github.com/acme/other" },
      ]),
      event("matches", [{ type: "content", repository: "github.com/acme/lib", path: "src/util.ts", lineMatches: [{ line: "fetchJson();", lineNumber: 41, offsetAndLengths: [[0, 9]] }] }]),
      event("matches", [chunkMatch("github.com/zed/app", "main.go", 0, ["fetchJson()"], 0)]),
      event("progress", { done: true, matchCount: 3 }),
      event("done", {}),
    );
    const ctx = testContext(workspace.dir);
    const tool = createSourcegraphTool({ url, token: "secret" });
    const result = await tool.execute({ query: "fetchJson lang:typescript", context_window: 1 }, ctx);
    expect(result.output).toBe(
      [
        `4 matches for "fetchJson lang:typescript" on ${url}; showing 4 results.`,
        "",
        "## github.com/acme/lib",
        "### src/fetch.ts",
        "    10| // before",
        ">   11| export function fetchJson() {",
        "    12|   return 1;",
        "### src/util.ts",
        ">   42| fetchJson();",
        "",
        "## github.com/acme/other",
        "(the repository matches)",
        "",
        "## github.com/zed/app",
        "### main.go",
        ">    1| fetchJson()",
      ].join("\n"),
    );
    expect(result.metadata).toMatchObject({ url, matchCount: 4, results: 4, files: 3, truncated: false, complete: true });
    expect(ctx.asks).toEqual([expect.objectContaining({ permission: "sourcegraph", patterns: [url] })]);
    const sent = new URL(requests[0]!.url!, url);
    expect(sent.pathname).toBe("/.api/search/stream");
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({ q: "fetchJson lang:typescript", display: "10", cl: "1", cm: "true" });
    expect(requests[0]!.headers.authorization).toBe("token secret");
    expect(requests[0]!.headers.accept).toBe("text/event-stream");
  });

  it("keeps `count` results and says more exist", async () => {
    handler = stream(event("matches", Array.from({ length: 5 }, (_, i) => chunkMatch("r", `f${i}.ts`, 0, ["x"], 0))), event("done", {}));
    const result = await createSourcegraphTool({ url }).execute({ query: "x", count: 2 }, testContext(workspace.dir));
    expect(result.metadata).toMatchObject({ files: 2, truncated: true });
    expect(result.output).toContain("5 matches");
    expect(result.output).toContain("showing 2 results");
    expect(result.output).not.toContain("f2.ts");
  });

  it("says so when nothing matches, and passes alerts on", async () => {
    handler = stream(event("alert", { title: "No repositories found", description: "Check the repo: filter." }), event("done", {}));
    const result = await createSourcegraphTool({ url }).execute({ query: "repo:nothing x" }, testContext(workspace.dir));
    expect(result.output).toBe(`No matches for "repo:nothing x" on ${url}.\nAlert: No repositories found: Check the repo: filter.`);
  });

  it("an error event fails the call with the instance's message", async () => {
    handler = stream(event("error", { message: "invalid query: unbalanced parenthesis" }));
    await expect(createSourcegraphTool({ url }).execute({ query: "(" }, testContext(workspace.dir))).rejects.toThrow(
      new SourcegraphError(`Sourcegraph reported an error: invalid query: unbalanced parenthesis (${url})`),
    );
  });

  it("an HTTP error fails the call with its status and body", async () => {
    handler = (_req, res) => {
      res.writeHead(401, { "Content-Type": "text/plain" });
      res.end("Invalid access token.");
    };
    await expect(createSourcegraphTool({ url }).execute({ query: "x" }, testContext(workspace.dir))).rejects.toMatchObject({
      name: "SourcegraphError",
      status: 401,
      message: "Sourcegraph answered 401 Unauthorized: Invalid access token.",
    });
  });

  it("a stream that never ends times out after `timeout` seconds", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(event("progress", { done: false }));
    };
    const started = Date.now();
    await expect(createSourcegraphTool({ url }).execute({ query: "slow", timeout: 0.3 }, testContext(workspace.dir))).rejects.toThrow(`timed out after 0.3 s`);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("an oversized response is cut at maxBytes; what came before is shown", async () => {
    const big = "y".repeat(2000);
    handler = stream(event("matches", [chunkMatch("r", "first.ts", 0, ["first"], 0)]), ...Array.from({ length: 50 }, (_, i) => event("matches", [chunkMatch("r", `big${i}.ts`, 0, [big], 0)])));
    const result = await createSourcegraphTool({ url, maxBytes: 4096 }).execute({ query: "y", count: 20 }, testContext(workspace.dir));
    expect(result.output).toContain("first.ts");
    expect(result.output).toContain("was cut; narrow the query");
    expect(result.metadata?.truncated).toBe(true);
    expect(result.metadata?.files).toBeLessThan(5);
  });

  it("an unreachable instance fails with a clear error", async () => {
    await expect(createSourcegraphTool({ url: "http://127.0.0.1:1" }).execute({ query: "x" }, testContext(workspace.dir))).rejects.toThrow(/Could not reach http:\/\/127\.0\.0\.1:1/);
  });
});
