// Resources for hosts, and content for the user only kept out of the model's input; against the
// process server (test-fixtures/mcp-server-process.mjs) over stdio and streamable HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpConfigError, McpResourceError } from "./errors.js";
import { mcpTools, type McpToolSource } from "./mcp-tool-source.js";
import { convertResult } from "./tool-result.js";
import { everythingServer, toolContext, toolNamed } from "./test-helpers.js";

const SCRIPT = fileURLToPath(new URL("../test-fixtures/mcp-server-process.mjs", import.meta.url));
let http: ChildProcess;
let source: McpToolSource;

beforeAll(async () => {
  http = spawn(process.execPath, [SCRIPT, "http", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve) => http.stdout!.on("data", (chunk: Buffer) => /listening (\d+)/.test(String(chunk)) && resolve(Number(/listening (\d+)/.exec(String(chunk))![1]))));
  source = mcpTools({
    servers: { local: { command: process.execPath, args: [SCRIPT, "stdio"] }, remote: { url: `http://127.0.0.1:${port}/mcp` }, everything: everythingServer() },
  });
});

afterAll(async () => {
  await source.close();
  http.kill("SIGKILL");
});

describe("listing and reading a server's resources", () => {
  it("lists one server's resources and templates, with their audience", async () => {
    const resources = await source.listResources("local");
    expect(resources.map((r) => r.uri).sort()).toEqual(["mem://both.txt", "mem://broken", "mem://logo.png", "mem://notes/1", "mem://notes/2", "mem://notes/3", "mem://readme.md"]);
    expect(resources.find((r) => r.uri === "mem://readme.md")).toEqual({
      server: "local",
      uri: "mem://readme.md",
      name: "readme",
      title: "Read me",
      description: "The project's read-me.",
      mimeType: "text/markdown",
      forModel: true,
    });
    expect(resources.find((r) => r.uri === "mem://logo.png")).toMatchObject({ audience: ["user"], forModel: false });
    expect(resources.find((r) => r.uri === "mem://both.txt")).toMatchObject({ audience: ["user", "assistant"], forModel: true });
    const templates = await source.listResourceTemplates("local");
    expect(templates).toEqual([{ server: "local", uriTemplate: "mem://notes/{id}", name: "note", description: "A note.", forModel: true }]);
  });

  it("without a server name, lists every server's resources (over stdio and HTTP, and a server with many)", async () => {
    const all = await source.listResources();
    expect(all.filter((r) => r.server === "local")).toHaveLength(7);
    expect(all.filter((r) => r.server === "remote")).toHaveLength(7);
    expect(all.filter((r) => r.server === "everything").map((r) => r.uri)).toContain("demo://resource/static/document/architecture.md");
  });

  it("reads a text resource: contents for the host, and the same text as the model's input", async () => {
    const read = await source.readResource("remote", "mem://readme.md");
    expect(read.contents).toEqual([{ uri: "mem://readme.md", mimeType: "text/markdown", text: "# Hello\nFrom the server." }]);
    expect(read.forModel).toBe(true);
    expect(read.modelInput).toEqual({ text: "mem://readme.md (text/markdown):\n# Hello\nFrom the server.", attachments: [] });
  });

  it("a resource for the user only is read for the host, with nothing for the model", async () => {
    const read = await source.readResource("local", "mem://logo.png");
    expect(read.contents).toEqual([{ uri: "mem://logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=" }]);
    expect(read).toMatchObject({ audience: ["user"], forModel: false, modelInput: { text: "", attachments: [] } });
  });

  it("a URI of a template is read through it", async () => {
    const read = await source.readResource("local", "mem://notes/7");
    expect(read.contents).toEqual([{ uri: "mem://notes/7", mimeType: "text/plain", text: "note 7" }]);
    expect(read.modelInput.text).toBe("mem://notes/7 (text/plain):\nnote 7");
  });

  it("a binary resource for the model becomes an attachment (the everything server's blob template)", async () => {
    const templates = await source.listResourceTemplates("everything");
    expect(templates.map((t) => t.uriTemplate)).toContain("demo://resource/dynamic/blob/{resourceId}");
    const read = await source.readResource("everything", "demo://resource/dynamic/blob/1");
    expect(read.contents[0]?.blob).toBeTruthy();
    expect(read.modelInput.attachments).toEqual([{ mime: read.contents[0]!.mimeType ?? "application/octet-stream", url: `data:${read.contents[0]!.mimeType ?? "application/octet-stream"};base64,${read.contents[0]!.blob}` }]);
    expect(read.modelInput.text).toBe(`[resource attached: demo://resource/dynamic/blob/1 (${read.contents[0]!.mimeType ?? "application/octet-stream"})]`);
  });

  it("failures are typed: unknown URI or a failing handler (connection kept), unknown server, closed source", async () => {
    const unknown = await source.readResource("local", "mem://nothing").catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(McpResourceError);
    expect(unknown).toMatchObject({ server: "local", resource: "mem://nothing", reconnect: false });
    await expect(source.readResource("local", "mem://broken")).rejects.toThrow(/the disk is on fire/);
    expect(source.status().local).toMatchObject({ state: "connected", connects: 1 });
    await expect(source.listResources("nope")).rejects.toBeInstanceOf(McpConfigError);
    const closed = mcpTools({ servers: { local: { command: process.execPath, args: [SCRIPT, "stdio"] } } });
    await closed.close();
    await expect(closed.listResources()).rejects.toThrow(/closed/);
  });
});

describe("content for the user only", () => {
  it("stays out of the tool's output and reaches the host in metadata.userContent", async () => {
    const tools = await source.tools();
    const result = await toolNamed(tools, "remote_notes").execute({}, toolContext().ctx);
    expect(result.output).toBe("for everyone\n\nfor the assistant\n\n[2 items shown to the user only]");
    expect(result.attachments).toBeUndefined();
    expect(result.metadata?.userContent).toEqual([
      { type: "text", text: "user-only: 3 files changed (diff shown in the UI)", annotations: { audience: ["user"] } },
      { type: "resource", resource: { uri: "mem://secret.txt", mimeType: "text/plain", text: "user-only resource" }, annotations: { audience: ["user"] } },
    ]);
  });

  it("never reaches the model in an agent's turn, while the stored tool part keeps it", async () => {
    const model = mockModel([{ toolCalls: [{ name: "local_notes", input: {} }] }, { text: "done" }]);
    const agent = createAgent({ model, tools: await source.tools() });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "notes please");
    const seen = JSON.stringify(model.calls[1]?.prompt);
    expect(seen).toContain("for everyone");
    expect(seen).not.toContain("user-only");
    const tool = parts.find((part) => part.type === "tool");
    expect(JSON.stringify(tool)).toContain("user-only: 3 files changed");
    await agent.close();
  });

  it("structured content is not the model's output when the only text was for the user", () => {
    const converted = convertResult({ content: [{ type: "text", text: "secret", annotations: { audience: ["user"] } }], structuredContent: { secret: true } });
    expect(converted.output).toBe("[1 item shown to the user only]");
    expect(converted.userContent).toHaveLength(1);
    const both = convertResult({ content: [{ type: "image", data: "AA==", mimeType: "image/png", annotations: { audience: ["assistant", "user"] } }] });
    expect(both.attachments).toHaveLength(1);
    expect(both.userContent).toEqual([]);
  });
});
