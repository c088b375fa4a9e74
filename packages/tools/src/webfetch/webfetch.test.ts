import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebFetchError } from "../errors.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { guardedFetch } from "./guarded-fetch.js";
import { AddressPolicy } from "./url-policy.js";
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

// The test server is on loopback, which webfetch refuses unless the host allows it.
const local = createWebFetchTool({ allowPrivateAddresses: ["127.0.0.1"] });

describe("webfetch", () => {
  it("converts an HTML page to markdown and asks webfetch with the URL", async () => {
    const ctx = testContext(ws.dir);
    const result = await local.execute({ url: `${base}/page`, format: "markdown" }, ctx);
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
    const text = await local.execute({ url: `${base}/page`, format: "text" }, testContext(ws.dir));
    expect(text.output).toContain("Hello & welcome");
    expect(text.output).toContain("Some bold text and a link.");
    expect(text.output).not.toMatch(/<|alert/);
    const html = await local.execute({ url: `${base}/page`, format: "html" }, testContext(ws.dir));
    expect(html.output).toBe(PAGE);
    const plain = await local.execute({ url: `${base}/plain`, format: "markdown" }, testContext(ws.dir));
    expect(plain.output).toBe("just text\n");
  });

  it("re-asks permission for each redirect and stops when it is denied", async () => {
    const ctx = testContext(ws.dir);
    const result = await local.execute({ url: `${base}/redirect`, format: "markdown" }, ctx);
    expect(ctx.asks.map((a) => a.patterns[0])).toEqual([`${base}/redirect`, `${base}/page`]);
    expect(result.metadata?.url).toBe(`${base}/page`);

    hits = [];
    const denied = testContext(ws.dir, { decide: (r) => (r.patterns[0]!.endsWith("/page") ? Promise.reject(new Error("denied")) : undefined) });
    await expect(local.execute({ url: `${base}/redirect`, format: "markdown" }, denied)).rejects.toThrow("denied");
    expect(hits).toEqual(["/redirect"]);
  });

  it("refuses non-http URLs, redirects to them, redirect loops, error statuses, large bodies and slow servers", async () => {
    const fail = (url: string, timeout?: number) => local.execute({ url, format: "markdown", timeout }, testContext(ws.dir));
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
    const image = await local.execute({ url: `${base}/image`, format: "markdown" }, testContext(ws.dir));
    expect(image.attachments).toEqual([{ mime: "image/png", url: "data:image/png;base64,iVBORw==" }]);
    const small = createWebFetchTool({ truncation: { maxBytes: 100 }, allowPrivateAddresses: true });
    const cut = await small.execute({ url: `${base}/page`, format: "html" }, testContext(ws.dir));
    expect(cut.metadata?.truncated).toBe(true);
    expect(cut.output).toContain("output truncated");
  });
});

describe("webfetch's network boundary", () => {
  const port = () => new URL(base).port;

  it("matches rules on one spelling of the URL: IPv4 in any form, IPv4-mapped IPv6, trailing dots, case, default ports, no credentials", async () => {
    const spellings = [
      `http://2130706433:${port()}/plain`,
      `http://0x7f.1:${port()}/plain`,
      `http://0177.0.0.1:${port()}/plain`,
      `http://127.1:${port()}/plain`,
      `http://127.0.0.1.:${port()}/plain`,
      `http://[::ffff:127.0.0.1]:${port()}/plain`,
      `http://[0:0:0:0:0:ffff:7f00:1]:${port()}/plain`,
      `HTTP://user:pw@127.0.0.1:${port()}/plain#frag`,
    ];
    for (const url of spellings) {
      const ctx = testContext(ws.dir);
      await local.execute({ url, format: "text" }, ctx);
      expect(ctx.asks[0]!.patterns).toEqual([`${base}/plain`]);
    }
    const asked = testContext(ws.dir);
    await local.execute({ url: "http://example.com.:80/x", format: "text" }, asked).catch(() => {});
    expect(asked.asks[0]!.patterns).toEqual(["http://example.com/x"]);
  });

  it("refuses loopback, private, link-local and metadata addresses by default, before sending anything", async () => {
    const hitsBefore = hits.length;
    for (const url of [
      `${base}/plain`,
      `http://[::ffff:127.0.0.1]:${port()}/plain`,
      `http://2130706433:${port()}/plain`,
      `http://localhost:${port()}/plain`,
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/latest/meta-data/",
      "http://10.1.2.3/",
      "http://192.168.0.1/",
      "http://[::1]/",
      "http://0.0.0.0/",
    ]) {
      await expect(webfetchTool.execute({ url, format: "text" }, testContext(ws.dir))).rejects.toThrow(/Refused to fetch/);
    }
    expect(hits.length).toBe(hitsBefore);
  });

  it("checks the address again when connecting, so a name that resolves differently the second time is still refused", async () => {
    const hitsBefore = hits.length;
    // The connection's own lookup refuses loopback even when no earlier check ran.
    const connect = guardedFetch(new AddressPolicy(false));
    const init = { signal: AbortSignal.timeout(5000), headers: {}, redirect: "manual" as const };
    await expect(connect(new URL(`http://localhost:${port()}/plain`), init)).rejects.toThrow(/Refused to fetch/);
    expect(hits.length).toBe(hitsBefore);
    const allowed = await guardedFetch(new AddressPolicy(["127.0.0.1", "::1"]))(new URL(`http://localhost:${port()}/plain`), init);
    expect(await allowed.text()).toBe("just text\n");
  });

  it("checks every redirect hop: a public-looking start cannot redirect into the host's network", async () => {
    // The first hop is allowed (a listed address), the redirect leads to loopback on another spelling.
    const other = createServer((_req, res) => res.writeHead(302, { location: `http://localhost:${port()}/plain` }).end());
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.2", resolve));
    try {
      const onlyFirst = createWebFetchTool({ allowPrivateAddresses: ["127.0.0.2"] });
      const hitsBefore = hits.length;
      const url = `http://127.0.0.2:${(other.address() as AddressInfo).port}/`;
      await expect(onlyFirst.execute({ url, format: "text" }, testContext(ws.dir))).rejects.toThrow(/Refused to fetch http:\/\/localhost/);
      expect(hits.length).toBe(hitsBefore);
    } finally {
      other.close();
    }
  });
});
