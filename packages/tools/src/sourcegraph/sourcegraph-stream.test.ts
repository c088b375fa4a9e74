// The sourcegraph tool against a local fake of Sourcegraph's streaming search API
// (`/.api/search/stream`, text/event-stream): every event and match type, cut and unfinished
// streams, 429/503 retries with Retry-After, and redirects to other origins.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { tempWorkspace, testContext } from "../test-context.js";
import { retryAfterSeconds } from "./search-request.js";
import { createSourcegraphTool } from "./sourcegraph.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A fake instance: answers with `handler`, records each request. */
interface Fake {
  url: string;
  handler: Handler;
  requests: IncomingMessage[];
  server: Server;
}

async function fake(): Promise<Fake> {
  const f = { handler: ((_req, res) => res.end()) as Handler, requests: [] as IncomingMessage[] } as Fake;
  f.server = createServer((req, res) => {
    f.requests.push(req);
    f.handler(req, res);
  });
  await new Promise<void>((resolve) => f.server.listen(0, "127.0.0.1", resolve));
  f.url = `http://127.0.0.1:${(f.server.address() as AddressInfo).port}`;
  return f;
}

let home: Fake;
let other: Fake;
let workspace: Awaited<ReturnType<typeof tempWorkspace>>;

beforeAll(async () => {
  [home, other] = await Promise.all([fake(), fake()]);
  workspace = await tempWorkspace();
});
afterAll(async () => {
  for (const f of [home, other]) {
    f.server.closeAllConnections();
    await new Promise((resolve) => f.server.close(resolve));
  }
  await workspace.cleanup();
});
afterEach(() => {
  home.requests = [];
  other.requests = [];
});

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** Writes `events`, then ends the response (`end`), leaves it open (`open`) or breaks the connection (`cut`). */
function stream(events: string[], ending: "end" | "open" | "cut" = "end"): Handler {
  return (_req, res) => {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.flushHeaders();
    for (const e of events) res.write(e);
    if (ending === "end") res.end();
    // Let the written events reach the client before the connection breaks.
    else if (ending === "cut") setTimeout(() => res.socket?.destroy(), 50);
  };
}

const done = event("done", {});
const content = (path: string) => ({
  type: "content",
  repository: "github.com/acme/lib",
  path,
  chunkMatches: [{ content: "const x = fetchJson();", contentStart: { offset: 0, line: 4, column: 0 }, ranges: [{ start: { offset: 10, line: 4, column: 10 }, end: { offset: 19, line: 4, column: 19 } }] }],
});
const run = (query: string, options: Parameters<typeof createSourcegraphTool>[0] = {}, ctx = testContext(workspace.dir)) =>
  createSourcegraphTool({ url: home.url, ...options }).execute({ query, count: 20 }, ctx);

describe("sourcegraph tool: every match type reaches the model", () => {
  it("content, path, symbol, repo, commit, diff, person, team and unknown matches are all shown", async () => {
    home.handler = stream([
      event("matches", [
        content("src/a.ts"),
        { type: "path", repository: "github.com/acme/lib", path: "src/fetch-json.ts", pathMatches: [] },
        {
          type: "symbol",
          repository: "github.com/acme/lib",
          path: "src/api.ts",
          symbols: [
            { url: "/github.com/acme/lib/-/blob/src/api.ts#L12", name: "fetchJson", containerName: "api", kind: "FUNCTION", line: 12 },
            { url: "/github.com/acme/lib/-/blob/src/api.ts#L30", name: "FetchJsonOptions", containerName: "", kind: "INTERFACE", line: 30 },
          ],
        },
        { type: "repo", repository: "github.com/zed/fetch-json", description: "Fetch JSON, typed.", archived: true },
        { type: "commit", repository: "github.com/zed/app", oid: "0123456789abcdef0123", authorName: "Ada", authorDate: "2024-05-01T00:00:00Z", message: "Use fetchJson", content: "```COMMIT_EDITMSG\nUse fetchJson\n```", ranges: [] },
        { type: "diff", repository: "github.com/zed/app", oid: "fedcba9876543210fedc", authorName: "Bob", authorDate: "2024-05-02T00:00:00Z", message: "x", content: "```diff\n-old()\n+fetchJson()\n```", ranges: [] },
        { type: "person", handle: "ada", email: "ada@example.com", user: { username: "ada", displayName: "Ada L." } },
        { type: "team", name: "search-core", displayName: "Search core", handle: "@acme/search" },
        { type: "notebook", repository: "github.com/zed/app", path: "nb.md" },
      ]),
      done,
    ]);
    const result = await run("fetchJson");
    const out = result.output;
    expect(out).toContain("### src/a.ts\n>    5| const x = fetchJson();");
    expect(out).toContain("### src/fetch-json.ts\n(the file's path matches)");
    expect(out).toContain("### src/api.ts\n>   12| fetchJson (function, in api)\n>   30| FetchJsonOptions (interface)");
    expect(out).toContain("## github.com/zed/fetch-json\n(the repository matches) Fetch JSON, typed. (archived)");
    expect(out).toContain("commit 0123456789ab by Ada 2024-05-01T00:00:00Z\n```COMMIT_EDITMSG\nUse fetchJson");
    expect(out).toContain("diff fedcba987654 by Bob 2024-05-02T00:00:00Z\n```diff\n-old()\n+fetchJson()");
    expect(out).toContain("Owner (person): Ada L. <ada, ada@example.com>");
    expect(out).toContain("Owner (team): Search core <@acme/search>");
    expect(out).toContain("### nb.md\n(a notebook match)");
    expect(result.metadata).toMatchObject({ results: 9, files: 4, complete: true });
  });

  it("a type:symbol search reports its symbols, not `No matches`", async () => {
    home.handler = stream([
      event("progress", { done: false, matchCount: 0, durationMs: 1, skipped: [] }),
      event("matches", [{ type: "symbol", repository: "github.com/vercel/ai", path: "packages/ai/stream-text.ts", symbols: [{ name: "streamText", containerName: "", kind: "FUNCTION", line: 210, url: "" }] }]),
      event("progress", { done: true, matchCount: 1, durationMs: 5, skipped: [] }),
      done,
    ]);
    const result = await run("type:symbol streamText");
    expect(result.output).not.toContain("No matches");
    expect(result.output).toContain("1 match for");
    expect(result.output).toContain(">  210| streamText (function)");
  });
});

describe("sourcegraph tool: what the search says about itself", () => {
  it("skipped (timed-out shards) makes the search incomplete, with the count as a lower bound and the suggested fix", async () => {
    home.handler = stream([
      event("matches", [content("src/a.ts")]),
      event("progress", {
        done: true,
        matchCount: 7,
        durationMs: 20000,
        skipped: [
          { reason: "shard-timedout", title: "Search timed out", message: "1,200 repositories were not searched", severity: "warn", suggested: { title: "increase timeout", queryExpression: "timeout:2m" } },
          { reason: "excluded-fork", title: "12 forks excluded", message: "12 forks excluded", severity: "info", suggested: { title: "include forks", queryExpression: "fork:yes" } },
        ],
      }),
      done,
    ]);
    const result = await run("x");
    expect(result.output).toContain("at least 7 matches");
    expect(result.output).toContain("Incomplete: Search timed out: 1,200 repositories were not searched (add `timeout:2m` to the query to include them)");
    expect(result.output).toContain("Skipped: 12 forks excluded (add `fork:yes` to the query to include them)");
    expect(result.output).toContain("the search is incomplete");
    expect(result.metadata?.complete).toBe(false);
  });

  it("skips that only exclude forks or archives leave the search complete, and are still listed", async () => {
    home.handler = stream([event("matches", [content("a.ts")]), event("progress", { done: true, matchCount: 1, skipped: [{ reason: "excluded-archive", title: "3 archived", message: "", severity: "info" }] }), done]);
    const result = await run("x");
    expect(result.output).toContain("Skipped: 3 archived");
    expect(result.output).not.toContain("incomplete");
    expect(result.metadata?.complete).toBe(true);
  });

  it("a last progress event that says it is not done marks the search incomplete", async () => {
    home.handler = stream([event("matches", [content("a.ts")]), event("progress", { done: false, matchCount: 1, skipped: [] }), done]);
    const result = await run("x");
    expect(result.metadata?.complete).toBe(false);
    expect(result.output).toContain("the search is incomplete");
  });

  it("filters are offered to narrow with, alerts keep their proposed queries", async () => {
    home.handler = stream([
      event("matches", [content("a.ts")]),
      event("filters", [
        { value: "lang:typescript", label: "TypeScript", count: 40, limitHit: false, kind: "lang" },
        { value: "repo:^github\\.com/acme/lib$", label: "acme/lib", count: 3, limitHit: false, kind: "repo" },
      ]),
      event("alert", { title: "Too many matches", description: "Showing some.", proposedQueries: [{ description: "only TypeScript", query: "x lang:typescript" }] }),
      done,
    ]);
    const out = (await run("x")).output;
    expect(out).toContain("Narrow with: lang:typescript (40), repo:^github\\.com/acme/lib$ (3)");
    expect(out).toContain("Alert: Too many matches: Showing some. Try: `x lang:typescript` (only TypeScript)");
  });

  it("an error event after matches keeps the matches and says the error", async () => {
    home.handler = stream([event("matches", [content("a.ts")]), event("error", { message: "backend gone" })]);
    const result = await run("x");
    expect(result.output).toContain("### a.ts");
    expect(result.output).toContain("Sourcegraph reported an error: backend gone");
    expect(result.metadata?.complete).toBe(false);
  });
});

describe("sourcegraph tool: streams that stop early", () => {
  it("a stream that ends without `done` is shown as incomplete", async () => {
    home.handler = stream([event("matches", [content("a.ts")]), event("progress", { done: true, matchCount: 1, skipped: [] })]);
    const result = await run("x");
    expect(result.output).toContain("### a.ts");
    expect(result.output).toContain("The stream ended before Sourcegraph said it was done; the search is incomplete.");
    expect(result.metadata?.complete).toBe(false);
  });

  it("a connection cut mid-stream keeps what arrived and says it was cut", async () => {
    home.handler = stream([event("matches", [content("a.ts")]), event("matches", [content("b.ts")])], "cut");
    const result = await run("x");
    expect(result.output).toContain("### a.ts");
    expect(result.output).toContain("### b.ts");
    expect(result.output).toMatch(/The connection was cut mid-stream \(.+\)\. The results that arrived are shown; the search is incomplete\./);
    expect(result.output.trim()).not.toBe("terminated");
    expect(result.metadata?.complete).toBe(false);
  });

  it("a connection cut before anything arrived fails, saying it was cut", async () => {
    home.handler = stream([], "cut");
    await expect(run("x")).rejects.toThrow(/The connection was cut mid-stream \(.+\)/);
  });

  it("a timeout after some matches keeps them and says the search timed out", async () => {
    home.handler = stream([event("matches", [content("a.ts")])], "open");
    const result = await createSourcegraphTool({ url: home.url }).execute({ query: "x", timeout: 0.3 }, testContext(workspace.dir));
    expect(result.output).toContain("### a.ts");
    expect(result.output).toContain("The search timed out after 0.3 s. The results that arrived are shown");
    home.server.closeAllConnections();
  });
});

describe("sourcegraph tool: 429 and 503 with Retry-After", () => {
  const busy =
    (status: number, retryAfter: string | undefined, times: number, then: Handler): Handler =>
    (req, res) => {
      if (home.requests.length <= times) {
        res.writeHead(status, retryAfter === undefined ? {} : { "Retry-After": retryAfter });
        res.end("slow down");
        return;
      }
      then(req, res);
    };

  it("a 429 with Retry-After is retried after the wait, and the wait is said", async () => {
    home.handler = busy(429, "1", 1, stream([event("matches", [content("a.ts")]), done]));
    const ctx = testContext(workspace.dir);
    const started = Date.now();
    const result = await run("x", {}, ctx);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(home.requests).toHaveLength(2);
    expect(result.output).toContain("Sourcegraph answered 429 Too Many Requests; waited 1 s as its Retry-After asked, then retried (retry 1 of at most 3).");
    expect(result.output).toContain("### a.ts");
    expect(ctx.progress).toContainEqual({ title: "x (waiting 1 s: 429 Retry-After)" });
  });

  it("a 503 whose Retry-After is an HTTP date is retried", async () => {
    home.handler = busy(503, new Date(Date.now() - 1000).toUTCString(), 1, stream([event("matches", [content("a.ts")]), done]));
    const result = await run("x");
    expect(home.requests).toHaveLength(2);
    expect(result.output).toContain("Sourcegraph answered 503 Service Unavailable; waited 0 s");
  });

  it("retries are bounded: the call fails after maxRetries, saying the wait", async () => {
    home.handler = busy(429, "0", 100, stream([done]));
    await expect(run("x", { maxRetries: 2 })).rejects.toMatchObject({ name: "SourcegraphError", status: 429, message: expect.stringContaining("asked to wait 0 s before retrying; it was retried 2 times already") });
    expect(home.requests).toHaveLength(3);
  });

  it("a wait longer than maxRetryWaitSeconds or the call's timeout fails at once, saying the wait", async () => {
    home.handler = busy(503, "600", 100, stream([done]));
    await expect(run("x")).rejects.toThrow("Sourcegraph answered 503 Service Unavailable and asked to wait 600 s before retrying; that is longer than the 30 s this tool waits.");
    home.handler = busy(429, "20", 100, stream([done]));
    await expect(createSourcegraphTool({ url: home.url }).execute({ query: "x", timeout: 5 }, testContext(workspace.dir))).rejects.toThrow("asked to wait 20 s before retrying; that is past the call's timeout");
  });

  it("a 429 without Retry-After is not retried", async () => {
    home.handler = busy(429, undefined, 100, stream([done]));
    await expect(run("x")).rejects.toThrow("Sourcegraph answered 429 Too Many Requests: slow down");
    expect(home.requests).toHaveLength(1);
  });

  it("Retry-After is read as seconds or an HTTP date; anything else is no Retry-After", () => {
    expect(retryAfterSeconds("7")).toBe(7);
    expect(retryAfterSeconds(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThanOrEqual(4);
    expect(retryAfterSeconds("soon")).toBeUndefined();
    expect(retryAfterSeconds("-1")).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});

describe("sourcegraph tool: redirects", () => {
  const redirectTo = (target: () => string): Handler => (req, res) => {
    res.writeHead(302, { Location: `${target()}${req.url}` });
    res.end();
  };

  it("a redirect to another origin asks for that origin too; the token stays with the configured instance", async () => {
    home.handler = redirectTo(() => other.url);
    other.handler = stream([event("matches", [content("a.ts")]), done]);
    const ctx = testContext(workspace.dir);
    const result = await run("secret project name", { token: "tok" }, ctx);
    expect(ctx.asks.map((a) => a.patterns)).toEqual([[home.url], [other.url]]);
    expect(ctx.asks[1]!.metadata).toMatchObject({ query: "secret project name" });
    expect(home.requests[0]!.headers.authorization).toBe("token tok");
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
    expect(result.metadata?.url).toBe(other.url);
    expect(result.output).toContain(`on ${other.url}`);
  });

  it("a denied origin is never sent the query", async () => {
    home.handler = redirectTo(() => other.url);
    other.handler = stream([done]);
    const ctx = testContext(workspace.dir, {
      decide: (request) => {
        if (request.patterns[0] === other.url) throw new Error("denied");
      },
    });
    await expect(run("x", {}, ctx)).rejects.toThrow("denied");
    expect(other.requests).toHaveLength(0);
  });

  it("a redirect within the same origin asks once; redirect loops are bounded; other schemes are refused", async () => {
    home.handler = (req, res) => {
      if (req.url!.startsWith("/.api/")) return redirectTo(() => `${home.url}/moved`)(req, res);
      stream([event("matches", [content("a.ts")]), done])(req, res);
    };
    const ctx = testContext(workspace.dir);
    await run("x", {}, ctx);
    expect(ctx.asks).toHaveLength(1);

    home.handler = redirectTo(() => home.url);
    await expect(run("x", { maxRedirects: 3 })).rejects.toThrow("Too many redirects (more than 3)");
    home.handler = (_req, res) => {
      res.writeHead(301, { Location: "file:///etc/passwd" });
      res.end();
    };
    await expect(run("x")).rejects.toThrow("redirected to file: URL, which is not followed");
  });
});
