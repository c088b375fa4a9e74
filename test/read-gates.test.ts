// Every read goes through `read`: what language servers say of a file, `@file` references and
// prompts' `file:` URLs are shown only where the model could read the file (its real path).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, DeniedError, FileUrlRefusedError, RejectedError, type AgentOptions, type PermissionRequest } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { MemoryStorage } from "@lathe/storage";
import { startTurn } from "../packages/queue/src/start-turn.js";
import type { Diagnostic, Diagnostics, DiagnosticsReport } from "@lathe/tools";
import { put } from "./helpers.js";

const SECRET = "SECRET-KEY-7f3a9";

let root: string;
let ws: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "lathe-read-gates-")));
  ws = join(root, "ws");
  mkdirSync(join(ws, ".git"), { recursive: true });
  put(join(ws, "src/secret.ts"), `export const key: number = "${SECRET}";\n`);
  put(join(ws, "src/ok.ts"), "export const ok = 1;\n");
  put(join(ws, ".env"), `API_KEY=${SECRET}\n`);
  put(join(root, "tenant-b/data.txt"), `tenant b's ${SECRET}\n`);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Language servers that find a type error quoting the secret in secret.ts, and record what they were asked. */
function leakyServers(): Diagnostics & { asked: string[] } {
  const error = (path: string): Diagnostic => ({ path, line: 1, column: 14, endLine: 1, endColumn: 17, severity: "error", message: `Type '"${SECRET}"' is not assignable to type 'number'.`, code: 2322, source: "typescript" });
  const report = (files: string[]): DiagnosticsReport => ({
    files: Object.fromEntries([join(ws, "src/secret.ts"), ...files].map((f) => [f, f.endsWith("secret.ts") ? [error(f)] : []])),
    before: {},
    notes: [],
  });
  const asked: string[] = [];
  return {
    asked,
    sync: async (files) => (asked.push(...files), report(files)),
    current: async ({ file }) => (file !== undefined && asked.push(file), report(file ? [file] : [join(ws, "src/ok.ts")])),
    format: async () => undefined,
    prompt: () => "Language servers are on.",
    close: async () => {},
  };
}

function agentWith(options: Omit<AgentOptions, "cwd">) {
  return createAgent({ cwd: ws, configDir: false, snapshots: false, dataDir: join(root, "data"), ...options });
}

const outputs = (parts: { type: string }[]) => JSON.stringify(parts.filter((p) => p.type === "tool"));

describe("diagnostics answer only for files the model may read", () => {
  it("a denied file: the diagnostics tool is refused before any server is asked, and other results withhold it", async () => {
    const lsp = leakyServers();
    const model = mockModel([
      { toolCalls: [{ name: "diagnostics", input: { path: "src/secret.ts" } }, { name: "diagnostics", input: {} }, { name: "write", input: { path: "src/new.ts", content: "export {};\n" } }] },
      { text: "done" },
    ]);
    const agent = agentWith({ model, lsp, permission: { read: { "src/secret.ts": "deny" } } });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "check");
    const text = outputs(parts);
    expect(text).not.toContain(SECRET);
    expect(lsp.asked).not.toContain(join(ws, "src/secret.ts"));
    const [targeted, all, write] = parts.filter((p) => p.type === "tool");
    expect(targeted?.type === "tool" && targeted.state.status).toBe("error");
    expect(all?.type === "tool" && all.state.status === "completed" ? all.state.output : "").toContain("The diagnostics of 1 file is not shown");
    expect(write?.type === "tool" && write.state.status === "completed" ? write.state.output : "").toContain("The diagnostics of 1 file is not shown");
    await agent.close();
  });

  it("a file whose read would ask: the diagnostics tool asks `read` for its real path (through a symlink too)", async () => {
    symlinkSync(join(ws, "src/secret.ts"), join(ws, "src/alias.ts"));
    const asked: PermissionRequest[] = [];
    const lsp = leakyServers();
    const model = mockModel([{ toolCalls: [{ name: "diagnostics", input: { path: "src/alias.ts" } }] }, { text: "done" }]);
    const agent = agentWith({ model, lsp, permission: { read: { "src/secret.ts": "ask" } }, approve: async (r) => (asked.push(r), { reject: "no" }) });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "check");
    expect(asked.map((r) => [r.permission, r.patterns])).toEqual([["read", ["src/secret.ts"]]]);
    expect(outputs(parts)).not.toContain(SECRET);
    expect(lsp.asked).toEqual([]);
    await agent.close();
  });
});

describe("@file references", () => {
  it("a reference is read through the read rules: .env asks, a symlink out of the workspace asks external_directory for its real path", async () => {
    symlinkSync(join(root, "tenant-b/data.txt"), join(ws, "link.txt"));
    const asked: PermissionRequest[] = [];
    const model = mockModel([{ text: "ok" }]);
    const agent = agentWith({ model, approve: async (r) => (asked.push(r), "reject") });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "look at @.env and @link.txt");
    expect(asked.map((r) => [r.permission, r.patterns])).toEqual([
      ["read", [".env"]],
      ["external_directory", [`${join(root, "tenant-b")}/*`]],
    ]);
    expect(JSON.stringify(model.calls)).not.toContain(SECRET);
    await agent.close();
  });
});

describe("file: URLs in prompts", () => {
  const filePart = (path: string) => ({ type: "file" as const, url: pathToFileURL(path).href, mime: "text/plain" });

  it("are refused unless the host opts in — /etc and another tenant's folder alike — and nothing is stored", async () => {
    const model = mockModel([]);
    const agent = agentWith({ model });
    const session = await agent.sessions.create();
    for (const target of ["/etc/passwd", join(root, "tenant-b/data.txt")]) {
      expect(() => agent.prompt(session.id, [{ type: "text", text: "read this" }, filePart(target)])).toThrow(FileUrlRefusedError);
    }
    expect(() => agent.prompt(session.id, [{ type: "file", url: "FILE:///etc/passwd", mime: "text/plain" }])).toThrow(/file: URLs are refused/);
    expect(await agent.sessions.messages(session.id)).toEqual([]);
    expect(model.calls).toHaveLength(0);
    await agent.close();
  });

  it("through the queue too: a queued prompt with a file: URL ends its job as refused, nothing stored or read", async () => {
    const storage = new MemoryStorage();
    const model = mockModel([]);
    const agent = agentWith({ model, storage });
    const session = await agent.sessions.create();
    const outcome = await startTurn(agent, storage, { kind: "prompt", sessionID: session.id, input: [filePart(join(root, "tenant-b/data.txt"))], options: {} }, "job_1", new Set());
    expect(outcome).toEqual({ done: { state: "refused", reason: expect.stringContaining("file: URLs are refused") } });
    expect(await agent.sessions.messages(session.id)).toEqual([]);
    expect(model.calls).toHaveLength(0);
    await agent.close();
  });

  it("with fileUrls on, each is asked like a read of its real path: outside the workspace external_directory, inside read", async () => {
    symlinkSync(join(root, "tenant-b"), join(ws, "shared"));
    const asked: PermissionRequest[] = [];
    const model = mockModel([{ text: "ok" }]);
    const agent = agentWith({ model, fileUrls: true, permission: { read: { ".env": "deny" } }, approve: async (r) => (asked.push(r), "reject") });
    const session = await agent.sessions.create();
    await expect(agent.prompt(session.id, [filePart("/etc/hostname")])).rejects.toBeInstanceOf(RejectedError);
    await expect(agent.prompt(session.id, [filePart(join(ws, "shared/data.txt"))])).rejects.toBeInstanceOf(RejectedError);
    await expect(agent.prompt(session.id, [filePart(join(ws, ".env"))])).rejects.toBeInstanceOf(DeniedError);
    expect(asked.map((r) => [r.permission, r.patterns])).toEqual([
      ["external_directory", ["/etc/*"]],
      ["external_directory", [`${join(root, "tenant-b")}/*`]],
    ]);
    expect(model.calls).toHaveLength(0);
    // A file the rules allow is attached as data.
    put(join(ws, "notes.txt"), "NOTES\n");
    const { info } = await agent.prompt(session.id, [{ type: "text", text: "see" }, filePart(join(ws, "notes.txt"))]);
    expect(info.error).toBeUndefined();
    expect(JSON.stringify(model.calls[0]?.prompt)).toContain("NOTES");
    await agent.close();
  });
});
