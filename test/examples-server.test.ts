import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent, type Agent } from "@lathe/core";
import { mockModel, type MockTurnInput } from "@lathe/mock";
import { SqliteStorage, type Storage } from "@lathe/storage";
import { PostgresStorage, startTestPostgres } from "@lathe/storage-postgres";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startServer } from "../examples/server/src/server.ts";
import { storageFromEnv } from "../examples/server/src/storage-from-env.ts";
import { api, events, TEST_TOKEN, until, type Sse } from "./sse.ts";

// examples/server over real HTTP, offline: the model is a scripted mock injected into the agent the
// app serves.

/** A response's JSON body, loosely typed for assertions. */
async function read(response: Response | Promise<Response>): Promise<any> {
  return (await response).json();
}

/** Reads the rest of a stream. */
async function rest(stream: AsyncGenerator<Sse>): Promise<Sse[]> {
  const out: Sse[] = [];
  for (;;) {
    const { value, done } = await stream.next();
    if (done) return out;
    out.push(value);
  }
}

interface Running {
  url: string;
  agent: Agent;
  close(): Promise<void>;
}

let workspace: string;
let dataDir: string;
const cleanups: Array<() => Promise<void> | void> = [];
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "lathe-server-ws-"));
  dataDir = mkdtempSync(join(tmpdir(), "lathe-server-data-"));
  cleanups.push(() => rmSync(workspace, { recursive: true, force: true }), () => rmSync(dataDir, { recursive: true, force: true }));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(script: MockTurnInput[], storage: Storage, options: { delayMs?: number } = {}): Promise<Running> {
  const agent = createAgent({
    model: mockModel(script, { delayMs: options.delayMs ?? 0 }),
    cwd: workspace,
    dataDir,
    storage,
    permission: { bash: "ask" },
  });
  const server = await startServer({ agent, port: 0, hostname: "127.0.0.1", token: TEST_TOKEN });
  const running = {
    url: server.url,
    agent,
    close: async () => {
      await agent.close();
      await server.close();
    },
  };
  cleanups.push(() => running.close());
  return running;
}

const sqlite = () => {
  const storage = new SqliteStorage(join(dataDir, "server.db"));
  cleanups.push(() => storage.close());
  return storage;
};

const json = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: body === undefined ? undefined : JSON.stringify(body),
});

async function createSession(url: string, title = "t") {
  const response = await api(`${url}/sessions`, json("POST", { title }));
  expect(response.status).toBe(201);
  return (await read(response)) as { id: string; title: string };
}

describe("examples/server", () => {
  it("creates a session and streams a prompt's events as server-sent events", async () => {
    const { url } = await start([{ text: "Hello over HTTP, streamed in chunks." }], sqlite());
    const session = await createSession(url, "first");
    expect(session.title).toBe("first");
    const response = await api(`${url}/sessions/${session.id}/prompt`, json("POST", { text: "hi" }));
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const seen: Sse[] = [];
    for await (const event of events(response)) seen.push(event);
    const deltas = seen.filter((e) => e.event === "message.part.updated" && e.data.part.type === "text" && e.data.delta).map((e) => e.data.delta);
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join("")).toBe("Hello over HTTP, streamed in chunks.");
    const done = seen[seen.length - 1]!;
    expect(done.event).toBe("done");
    expect(done.data.info).toMatchObject({ role: "assistant", finish: "stop" });

    const listed = await read(api(`${url}/sessions`));
    expect(listed.sessions.map((s: { id: string }) => s.id)).toContain(session.id);
    const detail = await read(api(`${url}/sessions/${session.id}`));
    expect(detail.messages.map((m: { info: { role: string } }) => m.info.role)).toEqual(["user", "assistant"]);
    expect(detail.busy).toBe(false);
  });

  it("lists a waiting approval and takes the answer from a separate request", async () => {
    const { url } = await start(
      [{ toolCalls: [{ name: "bash", input: { command: "echo approved-from-elsewhere" } }] }, { text: "The command ran." }],
      sqlite(),
    );
    const session = await createSession(url);
    const watcher = await api(`${url}/sessions/${session.id}/events`);
    const live = events(watcher);
    expect((await live.next()).value?.event).toBe("ready");

    const response = await api(`${url}/sessions/${session.id}/prompt`, json("POST", { text: "run it" }));
    const stream = events(response);
    const asked = await until(stream, (event) => event.event === "permission.asked");
    expect(asked.data.request).toMatchObject({ permission: "bash", patterns: ["echo approved-from-elsewhere"] });

    // Another client sees the request, and answers it.
    const pending = await read(api(`${url}/sessions/${session.id}/permissions`));
    expect(pending.map((r: { id: string }) => r.id)).toEqual([asked!.data.request.id]);
    expect((await api(`${url}/sessions/${session.id}/permissions/${asked!.data.request.id}`, json("POST", { reply: "once" }))).status).toBe(204);

    const after = await rest(stream);
    const tool = after.filter((e) => e.event === "message.part.updated" && e.data.part.type === "tool").at(-1)!;
    expect(tool.data.part.state.status).toBe("completed");
    expect(tool.data.part.state.output).toContain("approved-from-elsewhere");
    expect(after.some((e) => e.event === "permission.replied" && e.data.reply === "once")).toBe(true);
    expect(after.at(-1)!.event).toBe("done");
    expect(await read(api(`${url}/sessions/${session.id}/permissions`))).toEqual([]);

    // The session's live stream saw the same run.
    const followed: string[] = [];
    for (;;) {
      const { value } = await live.next();
      followed.push(value!.event);
      if (value!.event === "session.status" && value!.data.status.type === "idle") break;
    }
    expect(followed).toContain("permission.asked");
    expect(followed).toContain("permission.replied");
    await live.return(undefined);

    // Unknown requests and bad answers are refused.
    expect((await api(`${url}/sessions/${session.id}/permissions/per_unknown`, json("POST", { reply: "once" }))).status).toBe(404);
    expect((await api(`${url}/sessions/${session.id}/permissions/per_unknown`, json("POST", { reply: "maybe" }))).status).toBe(400);
  });

  it("rejects with feedback from a separate request, and the model reads it", async () => {
    const { url } = await start(
      [{ toolCalls: [{ name: "bash", input: { command: "rm -rf build" } }] }, (call) => ({ text: `Got it: ${JSON.stringify(call.prompt.at(-1)).includes("keep the build") ? "keeping it" : "?"}` })],
      sqlite(),
    );
    const session = await createSession(url);
    const stream = events(await api(`${url}/sessions/${session.id}/prompt`, json("POST", { text: "clean" })));
    const asked = await until(stream, (event) => event.event === "permission.asked");
    await api(`${url}/sessions/${session.id}/permissions/${asked.data.request.id}`, json("POST", { reply: { reject: "keep the build folder" } }));
    const after = await rest(stream);
    expect(after.at(-1)!.data.parts.filter((p: { type: string }) => p.type === "text").at(-1).text).toBe("Got it: keeping it");
  });

  it("aborts a running prompt from another request", async () => {
    const { url } = await start([{ text: "word ".repeat(400) }], sqlite(), { delayMs: 20 });
    const session = await createSession(url);
    const stream = events(await api(`${url}/sessions/${session.id}/prompt`, json("POST", { text: "talk" })));
    await stream.next();
    const busy = await api(`${url}/sessions/${session.id}/prompt`, json("POST", { text: "again" }));
    expect(busy.status).toBe(409);
    expect((await read(busy)).error.name).toBe("SessionBusyError");
    expect(await read(api(`${url}/sessions/${session.id}/abort`, json("POST")))).toEqual({ aborted: true });
    const done = (await rest(stream)).at(-1)!;
    expect(done.event).toBe("done");
    expect(done.data.info.finish).toBe("aborted");
    expect(await read(api(`${url}/sessions/${session.id}/abort`, json("POST")))).toEqual({ aborted: false });
  });

  it("forks a session, and reverts and unreverts a turn's file changes", async () => {
    writeFileSync(join(workspace, "notes.txt"), "original\n");
    const { url } = await start(
      [
        { toolCalls: [{ name: "read", input: { path: "notes.txt" } }] },
        { toolCalls: [{ name: "write", input: { path: "notes.txt", content: "rewritten\n" } }] },
        { text: "Rewrote notes.txt." },
      ],
      sqlite(),
    );
    const session = await createSession(url);
    for await (const _ of events(await api(`${url}/sessions/${session.id}/prompt`, json("POST", { text: "rewrite notes" })))) void _;
    expect(readFileSync(join(workspace, "notes.txt"), "utf8")).toBe("rewritten\n");
    const { messages } = await read(api(`${url}/sessions/${session.id}`));
    const userMessage = messages[0].info.id;

    const diff = await read(api(`${url}/sessions/${session.id}/diff`));
    expect(JSON.stringify(diff)).toContain("notes.txt");

    const forkResponse = await api(`${url}/sessions/${session.id}/fork`, json("POST", {}));
    expect(forkResponse.status).toBe(201);
    const fork = await read(forkResponse);
    expect(fork.parentID).toBe(session.id);
    const forked = await read(api(`${url}/sessions/${fork.id}`));
    expect(forked.messages).toHaveLength(2);

    const reverted = await api(`${url}/sessions/${session.id}/revert`, json("POST", { messageID: userMessage }));
    expect(reverted.status).toBe(200);
    expect((await read(reverted)).revert.messageID).toBe(userMessage);
    expect(readFileSync(join(workspace, "notes.txt"), "utf8")).toBe("original\n");
    const unreverted = await api(`${url}/sessions/${session.id}/unrevert`, json("POST"));
    expect(unreverted.status).toBe(200);
    expect(readFileSync(join(workspace, "notes.txt"), "utf8")).toBe("rewritten\n");
  });

  it("answers unknown sessions with 404 and bad bodies with 400, and deletes sessions", async () => {
    const { url } = await start([], sqlite());
    const missing = await api(`${url}/sessions/ses_missing/prompt`, json("POST", { text: "hi" }));
    expect(missing.status).toBe(404);
    expect((await read(missing)).error.name).toBe("SessionNotFoundError");
    expect((await api(`${url}/sessions/ses_missing`)).status).toBe(404);
    const session = await createSession(url);
    expect((await api(`${url}/sessions/${session.id}/prompt`, json("POST", { text: "" }))).status).toBe(400);
    expect((await api(`${url}/sessions/${session.id}/prompt`, { method: "POST", body: "{oops", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await api(`${url}/sessions/${session.id}/revert`, json("POST", {}))).status).toBe(400);
    expect((await api(`${url}/sessions?limit=-1`)).status).toBe(400);
    expect((await api(`${url}/sessions/${session.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`${url}/sessions/${session.id}`)).status).toBe(404);
  });
});

describe("examples/server storage", () => {
  it("uses SQLite without DATABASE_URL", async () => {
    const { storage, kind } = storageFromEnv({}, { sqlitePath: join(dataDir, "nested", "s.db") });
    cleanups.push(() => storage.close());
    expect(kind).toBe("sqlite");
    expect(storage).toBeInstanceOf(SqliteStorage);
    expect(existsSync(join(dataDir, "nested", "s.db"))).toBe(true);
  });

  it("uses PostgreSQL with DATABASE_URL: two servers (workers) share the sessions", { timeout: 120_000 }, async () => {
    const postgres = await startTestPostgres();
    cleanups.push(() => postgres.stop());
    const env = { DATABASE_URL: await postgres.createDatabase() };
    const first = storageFromEnv(env, { sqlitePath: join(dataDir, "unused.db") });
    const second = storageFromEnv(env, { sqlitePath: join(dataDir, "unused.db") });
    cleanups.push(() => first.storage.close(), () => second.storage.close());
    expect(first.kind).toBe("postgres");
    expect(first.storage).toBeInstanceOf(PostgresStorage);

    const a = await start([{ text: "Answered by worker A." }], first.storage);
    const b = await start([{ text: "Answered by worker B." }], second.storage);
    const session = await createSession(a.url, "shared");
    for await (const _ of events(await api(`${a.url}/sessions/${session.id}/prompt`, json("POST", { text: "one" })))) void _;
    const seen = await read(api(`${b.url}/sessions/${session.id}`));
    expect(seen.session.title).toBe("shared");
    expect(seen.messages.map((m: { info: { role: string } }) => m.info.role)).toEqual(["user", "assistant"]);
    const last: Sse[] = [];
    for await (const event of events(await api(`${b.url}/sessions/${session.id}/prompt`, json("POST", { text: "two" })))) last.push(event);
    expect(last.at(-1)!.data.parts.find((p: { type: string }) => p.type === "text").text).toBe("Answered by worker B.");
    const again = await read(api(`${a.url}/sessions/${session.id}`));
    expect(again.messages).toHaveLength(4);
    expect(existsSync(join(dataDir, "unused.db"))).toBe(false);
  });
});

describe("examples/server main.ts", () => {
  it("starts from the environment (offline demo model, SQLite) and serves requests until SIGTERM", { timeout: 60_000 }, async () => {
    const { spawn } = await import("node:child_process");
    const env: NodeJS.ProcessEnv = { ...process.env, LATHE_TOKEN: TEST_TOKEN, PORT: "0", LATHE_DB: join(dataDir, "main.db"), LATHE_WORKSPACE: workspace };
    for (const key of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "LATHE_BASE_URL", "DATABASE_URL"]) delete env[key];
    const child = spawn(process.execPath, [join(import.meta.dirname, "..", "examples", "server", "src", "main.ts")], { env, stdio: ["ignore", "pipe", "pipe"] });
    cleanups.push(() => void child.kill("SIGKILL"));
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Lathe server on (http:\/\/\S+) — model offline demo, sqlite storage/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
    expect(await read(api(`${url}/health`))).toEqual({ ok: true });
    const session = await createSession(url, "from main");
    expect((await read(api(`${url}/sessions/${session.id}`))).session.directory).toBe(workspace);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).not.toContain("ExperimentalWarning");
  });
});
