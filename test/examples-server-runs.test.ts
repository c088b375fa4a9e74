import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUIMessageStream, type UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, toUIMessages, type Agent, type LatheUIMessage } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { SqliteStorage } from "@lathe/storage";
import { examplePermissions } from "../examples/shared/permission-rules.ts";
import { startServer } from "../examples/server/src/server.ts";
import { finishChunks, startFakeOpenAI, textChunks, toolCallChunks } from "./openai-server.ts";
import { api, events, TEST_TOKEN, uiChunks as chunks, until, type Sse } from "./sse.ts";

// Runs belong to the server, not to the connection: a client that leaves (reload, navigation,
// closed tab) never stops a run or rejects its approval; clients rejoin it from the session's event
// log (useChat's resume, SSE Last-Event-ID), two at a time; and a server killed with SIGKILL while an
// approval waits takes the turn up again once it is answered — the tool runs once.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Appends to a file: asks `bash` for the command, then `edit` for the file it writes. */
const COMMAND = "echo ran >> ran.txt";

async function start(text = "Done.") {
  const cwd = mkdtempSync(join(tmpdir(), "lathe-runs-"));
  const model = mockModel([{ text: "Running it.", toolCalls: [{ name: "bash", input: { command: "echo ran" } }] }, { text }], { chunkSize: 3, delayMs: 2 });
  // The examples' own rules: `echo` asks.
  const agent = createAgent({ model, cwd, snapshots: false, ...examplePermissions() });
  const server = await startServer({ agent, port: 0, token: TEST_TOKEN });
  cleanups.push(() => rmSync(cwd, { recursive: true, force: true }), () => agent.close(), () => server.close());
  return { agent, url: server.url, cwd };
}

const userMessage = (text: string): UIMessage => ({ id: "u1", role: "user", parts: [{ type: "text", text }] });

/** A client following a UI message stream: every state of the message it shows, and a way to wait for one. */
function follow(response: Response) {
  const states: LatheUIMessage[] = [];
  const waiters: Array<{ match: (m: LatheUIMessage) => boolean; resolve: () => void }> = [];
  const done = (async () => {
    for await (const message of readUIMessageStream<LatheUIMessage>({ stream: chunks(response) as ReadableStream<never> })) {
      states.push(message);
      for (const waiter of [...waiters]) if (waiter.match(message)) (waiters.splice(waiters.indexOf(waiter), 1), waiter.resolve());
    }
    return states.at(-1)!;
  })();
  return {
    states,
    done,
    waitFor: (match: (m: LatheUIMessage) => boolean) =>
      states.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ match, resolve })),
  };
}

const toolState = (message: LatheUIMessage) => (message.parts.find((p) => p.type === "tool-bash") as { state: string; approval?: { id: string } } | undefined);
const waitingApproval = (message: LatheUIMessage) => toolState(message)?.state === "approval-requested";

describe("examples/server: runs outlive their clients", () => {
  it("a reload during an approval keeps it pending; two tabs rejoin with useChat's resume; one answers, both see it go", async () => {
    const { agent, url } = await start();
    const session = await agent.sessions.create();
    const controller = new AbortController();
    const first = await api(`${url}/chat`, { method: "POST", body: JSON.stringify({ id: session.id, messages: [userMessage("run it")] }), signal: controller.signal });
    const reader = chunks(first).getReader();
    let approvalId = "";
    while (!approvalId) {
      const { value } = await reader.read();
      if (value?.type === "tool-approval-request") approvalId = value.approvalId;
    }
    // The page reloads: its request goes away mid-approval.
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(agent.isBusy(session.id)).toBe(true);
    expect((await agent.permissions.pending(session.id)).map((r) => r.id)).toEqual([approvalId]);
    const listed = (await (await api(`${url}/sessions`)).json()) as { sessions: Array<{ id: string; status: string }> };
    expect(listed.sessions.find((s) => s.id === session.id)?.status).toBe("waiting");
    // Nothing was stored as rejected: the history shows the call waiting.
    const history = (await (await api(`${url}/chat/${session.id}/messages`)).json()) as LatheUIMessage[];
    expect(toolState(history.at(-1)!)).toMatchObject({ state: "approval-requested", approval: { id: approvalId } });

    // Two tabs reconnect the way useChat's resume does.
    const tab1 = follow(await api(`${url}/chat/${session.id}/stream`));
    const tab2 = follow(await api(`${url}/chat/${session.id}/stream`));
    await tab1.waitFor(waitingApproval);
    await tab2.waitFor(waitingApproval);
    const answer = await api(`${url}/chat/${session.id}/approvals`, { method: "POST", body: JSON.stringify({ approvals: [{ id: approvalId, approved: true }] }) });
    expect(await answer.json()).toEqual({ replied: [approvalId], stale: [] });
    const [final1, final2] = await Promise.all([tab1.done, tab2.done]);
    // The approval left both tabs: the call ran and the answer is complete in each.
    const stored = toUIMessages(await agent.sessions.messages(session.id)).at(-1);
    expect(final1).toEqual(stored);
    expect(final2).toEqual(stored);
    expect(toolState(final2)).toMatchObject({ state: "output-available", output: { output: "ran\n" } });
    // Each tab showed one part per call at every moment.
    for (const state of [...tab1.states, ...tab2.states]) expect(state.parts.filter((p) => p.type === "tool-bash").length).toBeLessThanOrEqual(1);
    // Nothing runs now: the reconnect request says so.
    expect((await api(`${url}/chat/${session.id}/stream`)).status).toBe(204);
    const after = (await (await api(`${url}/sessions`)).json()) as { sessions: Array<{ id: string; status: string }> };
    expect(after.sessions.find((s) => s.id === session.id)?.status).toBe("idle");
  });

  it("SSE clients resume with Last-Event-ID: what they missed first, no gap, no repeat", async () => {
    const { agent, url } = await start("word ".repeat(60));
    const session = await agent.sessions.create();
    const watcher = events(await api(`${url}/sessions/${session.id}/events`));
    await until(watcher, (e) => e.event === "ready");
    const prompt = events(await api(`${url}/sessions/${session.id}/prompt`, { method: "POST", body: JSON.stringify({ text: "go" }) }));
    const asked = await until(prompt, (e) => e.event === "permission.asked");
    await prompt.return(undefined);
    const seen: Sse[] = [];
    for (let i = 0; i < 6; i++) seen.push((await watcher.next()).value!);
    await watcher.return(undefined); // the connection drops
    await api(`${url}/sessions/${session.id}/permissions/${asked.data.request.id}`, { method: "POST", body: JSON.stringify({ reply: "once" }) });
    const again = events(await api(`${url}/sessions/${session.id}/events`, { headers: { "Last-Event-ID": seen.at(-1)!.id! } }));
    await until(again, (e) => e.event === "ready");
    const rest: Sse[] = [];
    await until(again, (e) => (rest.push(e), e.event === "session.status" && e.data.status.type === "idle"));
    await again.return(undefined);
    const ids = [...seen, ...rest].map((e) => Number(e.id));
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
    expect(rest.some((e) => e.event === "permission.replied")).toBe(true);
    // From the start of what the log holds, too.
    const replay = events(await api(`${url}/sessions/${session.id}/events?after=0`));
    await until(replay, (e) => e.event === "ready");
    expect((await replay.next()).value!.id).toBe("1");
    await replay.return(undefined);
    expect((await api(`${url}/sessions/${session.id}/events`, { headers: { "Last-Event-ID": "x1" } })).status).toBe(400);
  });
});

describe("examples/server main.ts killed during an approval", () => {
  it("restarts with the approval still pending; answering it resumes the turn and the tool runs once", { timeout: 90_000 }, async () => {
    const workspace = mkdtempSync(join(tmpdir(), "lathe-kill-ws-"));
    const data = mkdtempSync(join(tmpdir(), "lathe-kill-db-"));
    const llm = await startFakeOpenAI([
      { kind: "sse", chunks: [...textChunks("Running it."), ...toolCallChunks("call_1", "bash", { command: COMMAND, description: "marks a run" }), ...finishChunks("tool_calls")] },
      { kind: "sse", chunks: [...textChunks("Finished after the restart."), ...finishChunks("stop")] },
    ]);
    cleanups.push(() => llm.close(), () => rmSync(workspace, { recursive: true, force: true }), () => rmSync(data, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", LATHE_TOKEN: TEST_TOKEN, LATHE_DB: join(data, "server.db"), LATHE_WORKSPACE: workspace, LATHE_BASE_URL: llm.url, LATHE_MODEL: "local-model" };
    for (const key of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "DATABASE_URL", "HOST"]) delete env[key];
    const main = join(import.meta.dirname, "..", "examples", "server", "src", "main.ts");
    const boot = async (): Promise<{ child: ChildProcess; url: string }> => {
      const child = spawn(process.execPath, [main], { env, stdio: ["ignore", "pipe", "pipe"] });
      cleanups.push(() => void child.kill("SIGKILL"));
      let output = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Open (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      return { child, url };
    };

    const first = await boot();
    const session = (await (await api(`${first.url}/sessions`, { method: "POST", body: "{}" })).json()) as { id: string };
    const stream = events(await api(`${first.url}/sessions/${session.id}/prompt`, { method: "POST", body: JSON.stringify({ text: "mark a run" }) }));
    const asked = await until(stream, (e) => e.event === "permission.asked");
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await exited;
    await stream.return(undefined).catch(() => undefined);
    expect(existsSync(join(workspace, "ran.txt"))).toBe(false);

    const second = await boot();
    const listed = (await (await api(`${second.url}/sessions`)).json()) as { sessions: Array<{ id: string; status: string }> };
    expect(listed.sessions.find((s) => s.id === session.id)?.status).toBe("waiting");
    const pending = (await (await api(`${second.url}/sessions/${session.id}/permissions`)).json()) as Array<{ id: string }>;
    expect(pending.map((r) => r.id)).toEqual([asked.data.request.id]);
    const watch = events(await api(`${second.url}/sessions/${session.id}/events`));
    await until(watch, (e) => e.event === "ready");
    expect((await api(`${second.url}/sessions/${session.id}/permissions/${asked.data.request.id}`, { method: "POST", body: JSON.stringify({ reply: "once" }) })).status).toBe(204);
    // The resumed call goes on to ask for the file its redirect writes: answered too.
    for (;;) {
      const next = await until(watch, (e) => e.event === "permission.asked" || (e.event === "session.status" && e.data.status.type === "idle"));
      if (next.event !== "permission.asked") break;
      expect(next.data.request.permission).toBe("edit");
      await api(`${second.url}/sessions/${session.id}/permissions/${next.data.request.id}`, { method: "POST", body: JSON.stringify({ reply: "once" }) });
    }
    await watch.return(undefined);

    const detail = (await (await api(`${second.url}/sessions/${session.id}`)).json()) as { messages: Array<{ info: { role: string; finish?: string; time: { completed?: number } }; parts: Array<{ type: string; text?: string; state?: { status: string } }> }> };
    const answer = detail.messages.at(-1)!;
    expect(detail.messages.map((m) => m.info.role)).toEqual(["user", "assistant"]);
    expect(answer.info.finish).toBe("stop");
    expect(answer.parts.find((p) => p.type === "tool")?.state?.status).toBe("completed");
    expect(answer.parts.filter((p) => p.type === "text").at(-1)?.text).toBe("Finished after the restart.");
    expect(readFileSync(join(workspace, "ran.txt"), "utf8")).toBe("ran\n");
    expect(llm.requests).toHaveLength(2);
    second.child.kill("SIGTERM");
  });
});
