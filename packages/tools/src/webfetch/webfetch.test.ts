import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebFetchError } from "../errors.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { createWebFetchTool, webfetchTool } from "./webfetch.js";

const PAGE = `<!doctype html><html><head><title>Demo</title><style>body{color:red}</style><script>alert(1)</script></head>
<body><h1>Hello &amp; welcome</h1><p>Some <strong>bold</strong> text and a <a href="/docs">link</a>.</p>
<ul><li>one</li><li>two</li></ul><pre><code>const x = 1;</code></pre></body></html>`;

let server: Server;
let base: string;
let hits: string[] = [];
let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeAll(async () => {
  ws = await tempWorkspace();
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url === "/page") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    else if (req.url === "/plain") res.writeHead(200, { "content-type": "text/plain" }).end("just text\n");
    else if (req.url === "/redirect") res.writeHead(302, { location: "/page" }).end();
    else if (req.url === "/loop") res.writeHead(302, { location: "/loop" }).end();
    else if (req.url === "/to-file") res.writeHead(302, { location: "file:///etc/passwd" }).end();
    else if (req.url === "/big") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("x".repeat(6 * 1024 * 1024));
    } else if (req.url === "/slow") setTimeout(() => res.writeHead(200).end("late"), 3000);
    else if (req.url === "/image") res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    else res.writeHead(404, { "content-type": "text/plain" }).end("not here");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ws.cleanup();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("webfetch", () => {
  it("converts an HTML page to markdown and asks webfetch with the URL", async () => {
    const ctx = testContext(ws.dir);
    const result = await webfetchTool.execute({ url: `${base}/page`, format: "markdown" }, ctx);
    expect(result.output).toContain("# Hello & welcome");
    expect(result.output).toContain("Some **bold** text and a [link](/docs).");
    expect(result.output).toContain("-   one");
    expect(result.output).toContain("```\nconst x = 1;\n```");
    expect(result.output).not.toContain("alert(1)");
    expect(result.output).not.toContain("color:red");
    expect(ctx.asks).toEqual([expect.objectContaining({ permission: "webfetch", patterns: [`${base}/page`] })]);
    expect(result.metadata).toMatchObject({ status: 200, url: `${base}/page` });
  });

  it("returns plain text or the raw HTML on request", async () => {
    const text = await webfetchTool.execute({ url: `${base}/page`, format: "text" }, testContext(ws.dir));
    expect(text.output).toContain("Hello & welcome");
    expect(text.output).toContain("Some bold text and a link.");
    expect(text.output).not.toMatch(/<|alert/);
    const html = await webfetchTool.execute({ url: `${base}/page`, format: "html" }, testContext(ws.dir));
    expect(html.output).toBe(PAGE);
    const plain = await webfetchTool.execute({ url: `${base}/plain`, format: "markdown" }, testContext(ws.dir));
    expect(plain.output).toBe("just text\n");
  });

  it("re-asks permission for each redirect and stops when it is denied", async () => {
    const ctx = testContext(ws.dir);
    const result = await webfetchTool.execute({ url: `${base}/redirect`, format: "markdown" }, ctx);
    expect(ctx.asks.map((a) => a.patterns[0])).toEqual([`${base}/redirect`, `${base}/page`]);
    expect(result.metadata?.url).toBe(`${base}/page`);

    hits = [];
    const denied = testContext(ws.dir, { decide: (r) => (r.patterns[0]!.endsWith("/page") ? Promise.reject(new Error("denied")) : undefined) });
    await expect(webfetchTool.execute({ url: `${base}/redirect`, format: "markdown" }, denied)).rejects.toThrow("denied");
    expect(hits).toEqual(["/redirect"]);
  });

  it("refuses non-http URLs, redirects to them, redirect loops, error statuses, large bodies and slow servers", async () => {
    const fail = (url: string, timeout?: number) => webfetchTool.execute({ url, format: "markdown", timeout }, testContext(ws.dir));
    await expect(fail("file:///etc/passwd")).rejects.toBeInstanceOf(WebFetchError);
    await expect(fail("not a url")).rejects.toBeInstanceOf(WebFetchError);
    await expect(fail(`${base}/to-file`)).rejects.toThrow("Only http");
    await expect(fail(`${base}/loop`)).rejects.toThrow("Too many redirects");
    const missing = await fail(`${base}/missing`).catch((e: unknown) => e);
    expect(missing).toMatchObject({ name: "WebFetchError", status: 404 });
    await expect(fail(`${base}/big`)).rejects.toThrow("larger than");
    await expect(fail(`${base}/slow`, 0.5)).rejects.toThrow("timed out");
  });

  it("returns images as attachments and cuts long text with a note", async () => {
    const image = await webfetchTool.execute({ url: `${base}/image`, format: "markdown" }, testContext(ws.dir));
    expect(image.attachments).toEqual([{ mime: "image/png", url: "data:image/png;base64,iVBORw==" }]);
    const small = createWebFetchTool({ truncation: { maxBytes: 100 } });
    const cut = await small.execute({ url: `${base}/page`, format: "html" }, testContext(ws.dir));
    expect(cut.metadata?.truncated).toBe(true);
    expect(cut.output).toContain("output truncated");
  });
});
