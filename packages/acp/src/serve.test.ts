import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, type Agent } from "@lathe/core";
import { mockModel, type MockModel } from "@lathe/mock";
import { SqliteStorage } from "@lathe/storage";
import { builtinTools } from "@lathe/tools";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { connectEditor, type TestEditor } from "./acp-test-client.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "lathe-acp-"));
  writeFileSync(join(dir, "a.txt"), "one\ntwo\n");
  mkdirSync(join(dir, ".lathe", "commands"), { recursive: true });
  writeFileSync(join(dir, ".lathe", "commands", "greet.md"), "---\ndescription: Greets someone\n---\nSay hello to $ARGUMENTS.\n");
  return dir;
}

async function editorFor(model: MockModel, cwd: string, extra: Partial<Parameters<typeof createAgent>[0]> = {}, capabilities: ClientCapabilities = {}) {
  const made: Agent[] = [];
  const editor = await connectEditor(
    {
      agent: ({ cwd: folder, tools, files }) => {
        const agent = createAgent({
          model,
          cwd: folder,
          snapshots: false,
          permission: { edit: "ask", bash: "ask" },
          configDir: false,
          ...extra,
          ...(tools.length ? { tools: [...builtinTools(), ...tools] } : {}),
          ...(files ? { files } : {}),
        });
        made.push(agent);
        return agent;
      },
    },
    capabilities,
  );
  cleanups.push(() => editor.close());
  return { editor, made };
}

const kinds = (editor: TestEditor) => editor.updates.map((n) => n.update.sessionUpdate);

describe("serveAcp", () => {
  it("negotiates the protocol and announces what it can take", async () => {
    const { editor } = await editorFor(mockModel([]), workspace());
    expect(editor.initialized.protocolVersion).toBe(1);
    expect(editor.initialized.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true, audio: false },
      mcpCapabilities: { http: true },
    });
  });

  it("streams a turn: thoughts, words, a tool call with its diff after an approval in the editor, the plan", async () => {
    const cwd = workspace();
    const model = mockModel([
      { reasoning: "I should note the plan first.", toolCalls: [{ name: "todowrite", input: { todos: [{ id: "1", content: "Edit a.txt", status: "in_progress", priority: "high" }] } }] },
      { toolCalls: [{ name: "read", input: { filePath: "a.txt" } }] },
      { text: "Editing now.", toolCalls: [{ name: "edit", input: { filePath: "a.txt", oldString: "two", newString: "deux" } }] },
      { text: "Done: a.txt says deux." },
    ]);
    const { editor } = await editorFor(model, cwd);
    const { sessionId, modes } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    expect(modes?.currentModeId).toBe("default");
    expect(modes?.availableModes.map((m) => m.id)).toEqual(["default", "acceptEdits", "plan", "bypass"]);

    // The edit needs the editor's approval (the host's rules ask for edits): it reads the file first.
    const response = await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Change two to deux in a.txt" }] });
    expect(response.stopReason).toBe("end_turn");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\ndeux\n");
    expect(editor.invalid).toEqual([]);

    const updates = editor.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
    const thought = updates.filter((u) => u.sessionUpdate === "agent_thought_chunk").map((u) => (u as { content: { text: string } }).content.text).join("");
    expect(thought).toBe("I should note the plan first.");
    const words = updates.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => (u as { content: { text: string } }).content.text).join("");
    expect(words).toBe("Editing now.Done: a.txt says deux.");
    expect(updates.find((u) => u.sessionUpdate === "plan")).toMatchObject({ entries: [{ content: "Edit a.txt", status: "in_progress", priority: "high" }] });

    const editCall = updates.find((u) => u.sessionUpdate === "tool_call" && (u as { kind?: string }).kind === "edit") as { toolCallId: string } | undefined;
    expect(editCall).toBeDefined();
    const finished = updates.filter((u) => u.sessionUpdate === "tool_call_update" && (u as { toolCallId: string }).toolCallId === editCall!.toolCallId).at(-1);
    expect(finished).toMatchObject({ status: "completed", locations: [{ path: join(cwd, "a.txt") }] });
    expect((finished as { content: unknown[] }).content).toContainEqual({ type: "diff", path: join(cwd, "a.txt"), oldText: "one\ntwo", newText: "one\ndeux" });

    expect(editor.permissions).toHaveLength(1);
    expect(editor.permissions[0]!.toolCall).toMatchObject({ toolCallId: editCall!.toolCallId, kind: "edit" });
    expect(editor.permissions[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
  });

  it("a rejection in the editor leaves the file alone; allow always is remembered for the session", async () => {
    const cwd = workspace();
    const model = mockModel([
      { toolCalls: [{ name: "bash", input: { command: "echo hi > b.txt", description: "write b" } }] },
      { toolCalls: [{ name: "bash", input: { command: "echo hi > c.txt", description: "write c" } }] },
      { toolCalls: [{ name: "bash", input: { command: "echo hi > c.txt", description: "write c again" } }] },
      { text: "Wrote c twice." },
    ]);
    const { editor } = await editorFor(model, cwd, { permission: { bash: "ask", edit: "allow" } });
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    editor.answer = () => "reject";
    const first = await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write b" }] });
    expect(["end_turn", "cancelled"]).toContain(first.stopReason);
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);

    editor.answer = () => "always";
    editor.permissions.length = 0;
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write c" }] });
    expect(readFileSync(join(cwd, "c.txt"), "utf8")).toBe("hi\n");
    expect(editor.permissions).toHaveLength(1); // the second identical command was covered by "always"
  });

  it("session/cancel ends the turn as cancelled and stops its command", async () => {
    const cwd = workspace();
    const model = mockModel([{ toolCalls: [{ name: "bash", input: { command: "sleep 31.7 && touch late.txt", description: "wait" } }] }, { text: "never" }]);
    const { editor } = await editorFor(model, cwd, { permission: { bash: "allow" } });
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    const prompt = editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
    await waitFor(() => editor.updates.some((n) => n.update.sessionUpdate === "tool_call_update" && (n.update as { status?: string }).status === "in_progress"));
    await editor.agent.notify("session/cancel", { sessionId });
    const started = Date.now();
    expect((await prompt).stopReason).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(existsSync(join(cwd, "late.txt"))).toBe(false);
    await waitFor(() => !execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).includes("sleep 31.7"));
  });

  it("session/cancel mid-stream stops the model's answer at once", async () => {
    const cwd = workspace();
    const model = mockModel([{ text: "word ".repeat(400) }, { text: "Back." }], { chunkSize: 5, delayMs: 20 });
    const { editor } = await editorFor(model, cwd);
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    const prompt = editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk" }] });
    await waitFor(() => editor.updates.filter((n) => n.update.sessionUpdate === "agent_message_chunk").length >= 3);
    await editor.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    const chunks = editor.updates.filter((n) => n.update.sessionUpdate === "agent_message_chunk").length;
    expect(chunks).toBeLessThan(100);
    // The session takes the next prompt.
    expect((await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] })).stopReason).toBe("end_turn");
  });

  it("a prompt sent while the turn runs is steered into it: the next request carries it, both prompts end with the turn, every update once", async () => {
    const cwd = workspace();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const model = mockModel([
      async () => (await held, { text: "Reading. ", toolCalls: [{ name: "read", input: { filePath: "a.txt" } }] }),
      { text: "Using b.txt as you said." },
    ]);
    const { editor } = await editorFor(model, cwd);
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    const first = editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "look at a.txt" }] });
    await waitFor(() => model.calls.length === 1);
    // The user types a correction while the first step streams.
    const second = editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "no, b.txt" }] });
    await new Promise((r) => setTimeout(r, 50));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect([a.stopReason, b.stopReason]).toEqual(["end_turn", "end_turn"]);
    expect(model.calls).toHaveLength(2);
    const last = model.calls[1]!.prompt.at(-1)!;
    expect(last.role).toBe("user");
    expect(JSON.stringify(last.content)).toContain("no, b.txt");
    const chunks = editor.updates.flatMap((n) => (n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text" ? [n.update.content.text] : []));
    expect(chunks.join("")).toBe("Reading. Using b.txt as you said.");
    expect(editor.updates.filter((n) => n.update.sessionUpdate === "tool_call")).toHaveLength(1);
  });

  it("session/cancel with a steered prompt waiting cancels both, and nothing runs after", async () => {
    const cwd = workspace();
    const model = mockModel([{ toolCalls: [{ name: "bash", input: { command: "sleep 32.3", description: "wait" } }] }, { text: "never" }]);
    const { editor } = await editorFor(model, cwd, { permission: { bash: "allow" } });
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    const first = editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
    await waitFor(() => editor.updates.some((n) => n.update.sessionUpdate === "tool_call_update" && (n.update as { status?: string }).status === "in_progress"));
    const second = editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "and then this" }] });
    await new Promise((r) => setTimeout(r, 100));
    await editor.agent.notify("session/cancel", { sessionId });
    expect([(await first).stopReason, (await second).stopReason]).toEqual(["cancelled", "cancelled"]);
    await new Promise((r) => setTimeout(r, 200));
    expect(model.calls).toHaveLength(1);
    await waitFor(() => !execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).includes("sleep 32.3"));
  });

  it("a subtask command sent while the turn runs is refused with a JSON-RPC error; the turn goes on", async () => {
    const cwd = workspace();
    writeFileSync(join(cwd, ".lathe", "commands", "explain.md"), "---\nsubtask: true\n---\nExplain $1\n");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const model = mockModel([async () => (await held, { text: "Done." })]);
    const { editor } = await editorFor(model, cwd);
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    const first = editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "work" }] });
    await waitFor(() => model.calls.length === 1);
    await expect(editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/explain x" }] })).rejects.toMatchObject({ code: -32602 });
    release();
    expect((await first).stopReason).toBe("end_turn");
  });

  it("announces commands and runs `/name args` as the command", async () => {
    const cwd = workspace();
    const model = mockModel([{ text: "Hello, Ada!" }]);
    const { editor } = await editorFor(model, cwd);
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    await waitFor(() => editor.updates.some((n) => n.update.sessionUpdate === "available_commands_update"));
    const commands = editor.updates.find((n) => n.update.sessionUpdate === "available_commands_update")!.update as { availableCommands: Array<{ name: string; description: string }> };
    expect(commands.availableCommands).toContainEqual(expect.objectContaining({ name: "greet", description: "Greets someone" }));
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/greet Ada" }] });
    const sent = JSON.stringify(model.calls[0]!.prompt);
    expect(sent).toContain("Say hello to Ada.");
  });

  it("takes resource links, embedded resources and images; refuses audio with a JSON-RPC error", async () => {
    const cwd = workspace();
    const model = mockModel([{ text: "Seen." }]);
    const { editor } = await editorFor(model, cwd);
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    await editor.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "Look at these." },
        { type: "resource_link", name: "a.txt", uri: `file://${join(cwd, "a.txt")}` },
        { type: "resource", resource: { uri: `file://${join(cwd, "sel.ts")}`, text: "const selected = 1;" } },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
      ],
    });
    const sent = JSON.stringify(model.calls[0]!.prompt);
    expect(sent).toMatch(/a\.txt[\s\S]*one[\s\S]*two/); // the linked file, read as the read tool reads it
    expect(sent).toContain("const selected = 1;");
    expect(sent).toContain("image/png");
    await expect(editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "audio", mimeType: "audio/wav", data: "AAAA" }] })).rejects.toMatchObject({ code: -32602 });
  });

  it("malformed requests get JSON-RPC errors and the server keeps serving", async () => {
    const cwd = workspace();
    const { editor } = await editorFor(mockModel([{ text: "still here" }]), cwd);
    await expect(editor.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] })).rejects.toMatchObject({ code: -32602 });
    await expect(editor.agent.request("session/new", { cwd: join(cwd, "missing"), mcpServers: [] })).rejects.toMatchObject({ code: -32602 });
    await expect(editor.agent.request("session/prompt", { sessionId: "ses_nope", prompt: [{ type: "text", text: "hi" }] })).rejects.toMatchObject({ code: -32002 });
    await expect(editor.agent.request("session/new", { cwd } as never)).rejects.toMatchObject({ code: -32602 });
    await expect(editor.agent.request("session/set_mode", { sessionId: "ses_nope", modeId: "plan" })).rejects.toMatchObject({ code: -32002 });
    await expect(editor.agent.request("no/such_method", {})).rejects.toMatchObject({ code: -32601 });
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    await expect(editor.agent.request("session/set_mode", { sessionId, modeId: "yolo" })).rejects.toMatchObject({ code: -32602 });
    await expect(editor.agent.request("session/prompt", { sessionId, prompt: [] })).rejects.toMatchObject({ code: -32602 });
    expect((await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).stopReason).toBe("end_turn");
  });

  it("set_mode switches Lathe's permission mode: plan refuses the edit without asking the editor", async () => {
    const cwd = workspace();
    const model = mockModel([{ toolCalls: [{ name: "write", input: { filePath: "new.txt", content: "x" } }] }, { text: "I cannot write in plan mode." }]);
    const { editor, made } = await editorFor(model, cwd, { permission: {} });
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    await editor.agent.request("session/set_mode", { sessionId, modeId: "plan" });
    expect((await made[0]!.sessions.get(sessionId))!.mode).toBe("plan");
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write new.txt" }] });
    expect(existsSync(join(cwd, "new.txt"))).toBe(false);
    expect(editor.permissions).toHaveLength(0);
  });

  it("reads the editor's buffers and writes through the editor when it offers its files", async () => {
    const cwd = workspace();
    const file = join(cwd, "a.txt");
    const model = mockModel([
      { toolCalls: [{ name: "read", input: { filePath: "a.txt" } }] },
      { toolCalls: [{ name: "edit", input: { filePath: "a.txt", oldString: "unsaved", newString: "saved" } }] },
      { text: "Done." },
    ]);
    const { editor } = await editorFor(model, cwd, {}, { fs: { readTextFile: true, writeTextFile: true } });
    editor.buffers.set(file, "one\nunsaved\n"); // the editor's buffer differs from the disk
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "fix a.txt" }] });
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("unsaved"); // the read saw the buffer
    expect(editor.permissions.map((p) => p.toolCall.kind)).toEqual(["edit"]); // the same asks as on disk
    expect(editor.written).toEqual([{ path: file, content: "one\nsaved\n" }]);
    expect(readFileSync(file, "utf8")).toBe("one\ntwo\n"); // the editor, not the agent, saves
  });

  it("the editor's MCP servers (stdio and HTTP) are the session's tool sources", async () => {
    const cwd = workspace();
    const fixture = fileURLToPath(new URL("./fixtures/echo-mcp-server.mjs", import.meta.url));
    const http = spawn(process.execPath, [fixture, "http"], { stdio: ["ignore", "pipe", "inherit"] });
    cleanups.push(async () => void http.kill("SIGKILL"));
    const url = await new Promise<string>((resolve) => http.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
    const model = mockModel([
      { toolCalls: [{ name: "local_shout", input: { text: "hi" } }, { name: "remote_shout", input: { text: "there" } }] },
      { text: "Both answered." },
    ]);
    const { editor } = await editorFor(model, cwd, { permission: {} });
    const { sessionId } = await editor.agent.request("session/new", {
      cwd,
      mcpServers: [
        { name: "local", command: process.execPath, args: [fixture], env: [{ name: "ECHO_SUFFIX", value: "from the editor" }] },
        { type: "http", name: "remote", url, headers: [{ name: "x-test", value: "1" }] },
      ],
    });
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "shout" }] });
    const offered = (model.calls[0]!.tools ?? []).map((tool) => tool.name);
    expect(offered).toEqual(expect.arrayContaining(["local_shout", "remote_shout", "read"]));
    const results = JSON.stringify(model.calls[1]!.prompt);
    expect(results).toContain("HI! (from the editor)");
    expect(results).toContain("THERE! (no suffix)");
    await expect(
      editor.agent.request("session/new", { cwd, mcpServers: [{ type: "sse", name: "old", url, headers: [] }] }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("session/load after a restart replays the stored history as updates (SQLite)", async () => {
    const cwd = workspace();
    const db = join(mkdtempSync(join(tmpdir(), "lathe-acp-db-")), "s.db");
    const first = new SqliteStorage(db);
    const one = await editorFor(mockModel([{ reasoning: "Reading.", toolCalls: [{ name: "read", input: { filePath: "a.txt" } }] }, { text: "It has two lines." }]), cwd, { storage: first });
    const { sessionId } = await one.editor.agent.request("session/new", { cwd, mcpServers: [] });
    await one.editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "What is in a.txt?" }] });
    await one.editor.close();
    cleanups.pop();
    await first.close();

    const second = new SqliteStorage(db);
    cleanups.push(() => second.close());
    const two = await editorFor(mockModel([]), cwd, { storage: second });
    const loaded = await two.editor.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe("default");
    const replay = two.editor.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
    expect(replay[0]).toMatchObject({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "What is in a.txt?" } });
    expect(replay.map((u) => u.sessionUpdate)).toEqual(expect.arrayContaining(["agent_thought_chunk", "tool_call", "agent_message_chunk"]));
    expect(replay.find((u) => u.sessionUpdate === "tool_call")).toMatchObject({ kind: "read", status: "completed" });
    expect(two.editor.invalid).toEqual([]);
    await expect(two.editor.agent.request("session/load", { sessionId: "ses_missing", cwd, mcpServers: [] })).rejects.toMatchObject({ code: -32002 });
  });
});

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}
