import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createAgent, type AgentEvent } from "@lathe/core";
import type { MessageWithParts, Part } from "@lathe/message";
import { createQueue, queueNotes, type TurnQueue } from "@lathe/queue";
import { PostgresStorage, startTestPostgres, type TestPostgres } from "@lathe/storage-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployTool, scriptedModel, STEP_USAGE } from "./fixtures/queue-agent.ts";
import { until } from "./helpers.js";

// The proof of @lathe/queue: worker processes on a real PostgreSQL and real pg-boss, killed at
// random moments mid-turn, and every prompt still answered exactly once, in order.

const workerScript = fileURLToPath(new URL("./fixtures/queue-worker.ts", import.meta.url));

interface WorkerProcess {
  child: ChildProcess;
  id: Promise<string>;
  active: number;
  exited: Promise<number | null>;
}

describe("many worker processes on one PostgreSQL", () => {
  let server: TestPostgres;
  const children = new Set<ChildProcess>();

  function startWorker(schema: string, name: string, options: { concurrency?: number; latencyMs?: number; maxAttempts?: number; graceMs?: number } = {}): WorkerProcess {
    const args = [server.connectionString, schema, name, options.concurrency ?? 2, options.latencyMs ?? 50, options.maxAttempts ?? 5, options.graceMs ?? 30_000].map(String);
    const child = spawn(process.execPath, [workerScript, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    const worker = { child, active: 0 } as WorkerProcess;
    let out = "";
    worker.id = new Promise((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        for (;;) {
          const newline = out.indexOf("\n");
          if (newline < 0) break;
          const line = out.slice(0, newline);
          out = out.slice(newline + 1);
          if (line.startsWith("READY ")) resolve(line.slice(6));
          if (line.startsWith("ACTIVE ")) worker.active = Number(line.slice(7));
        }
      });
      child.once("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
    });
    worker.id.catch(() => {});
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    worker.exited = new Promise((resolve) =>
      child.once("exit", (code) => {
        children.delete(child);
        if (code !== 0 && code !== null && stderr) console.error(stderr);
        resolve(code);
      }),
    );
    return worker;
  }

  const texts = (m: MessageWithParts) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
  const stepTotals = (parts: Part[]) =>
    parts.reduce((t, p) => (p.type === "step-finish" ? { input: t.input + p.tokens.input, output: t.output + p.tokens.output } : t), { input: 0, output: 0 });

  beforeAll(async () => {
    server = await startTestPostgres();
  });
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    await server?.stop();
  });

  it("30 sessions × 3 prompts on 3 workers, 10 of them SIGKILLed mid-turn and one stopped with SIGTERM: every prompt answered once, in order, usage exact, every event seen once", { timeout: 240_000 }, async () => {
    const schema = "proof";
    const name = "proof_turns";
    const marker = `lathe-orphan-${randomUUID()}`;
    const queue = createQueue({ connectionString: server.connectionString, schema, name, maxAttempts: 5 });
    const storage = await PostgresStorage.open({ connectionString: server.connectionString, schema });
    const host = createAgent({ model: scriptedModel(), storage });
    const workers = new Set<WorkerProcess>();
    const spawnOne = () => {
      const w = startWorker(schema, name);
      workers.add(w);
      void w.exited.then(() => workers.delete(w));
      return w;
    };
    for (let i = 0; i < 3; i++) spawnOne();
    await Promise.all([...workers].map((w) => w.id));

    const sessions = await Promise.all(Array.from({ length: 30 }, () => host.sessions.create()));
    const seen = new Map<string, { seq: number; event: AgentEvent }[]>();
    const stop = new AbortController();
    const subscriptions = sessions.map(async (s) => {
      const list: { seq: number; event: AgentEvent }[] = [];
      seen.set(s.id, list);
      for await (const item of queue.subscribe(s.id, { signal: stop.signal })) list.push(item);
    });
    // Every other prompt runs a real command (a tool process that must not outlive its worker).
    const prompt = (s: number, p: number) => (p % 2 === 0 ? `prompt ${p} of ${s}: run: sleep 2 # ${marker}` : `prompt ${p} of ${s}`);
    const jobs: string[] = [];
    for (let p = 0; p < 3; p++) for (let s = 0; s < sessions.length; s++) jobs.push(await queue.enqueuePrompt(sessions[s]!.id, prompt(s, p)));
    const allDone = async () => (await Promise.all(jobs.map((id) => queue.outcome(id)))).every((o) => o?.state === "completed");

    // 10 kills at random moments, each of a worker in the middle of a turn; a new worker replaces it.
    let kills = 0;
    const orphanCandidates: number[] = [];
    const survivors: string[] = [];
    const describe = (pid: number) => {
      try {
        return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")}`;
      } catch {
        return String(pid);
      }
    };
    // Running, not a zombie waiting to be reaped (the reaper of orphans may be slow, or absent in a container).
    const alive = (pid: number) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
      } catch {
        return false;
      }
    };
    while (kills < 10 && !(await allDone())) {
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 600));
      const busy = [...workers].filter((w) => w.active > 0);
      const victim = busy[Math.floor(Math.random() * busy.length)];
      if (!victim) continue;
      // The tool processes it runs now (and their watchers) must not outlive it.
      const running = spawnSync("pgrep", ["-P", String(victim.child.pid)]).stdout.toString().split("\n").filter(Boolean).map(Number);
      victim.child.kill("SIGKILL");
      orphanCandidates.push(...running);
      // Checked soon after the kill: a `sleep 2` left to itself would still be running then.
      setTimeout(() => survivors.push(...running.filter(alive).map(describe)), 1_200);
      kills++;
      spawnOne();
    }
    expect(kills).toBe(10);
    // A graceful stop mid-turn: the worker hands its turn back (a short grace) and exits cleanly.
    await until(() => [...workers].some((w) => w.active > 0) || kills < 0, 30_000, "a busy worker").catch(() => {});
    const stopping = startWorker(schema, name, { graceMs: 100 });
    await stopping.id;
    await until(() => stopping.active > 0, 60_000, "the stopping worker to take a turn").catch(() => {});
    stopping.child.kill("SIGTERM");
    expect(await stopping.exited).toBe(0);

    await until(allDone, 150_000, "every job to complete");
    await new Promise((r) => setTimeout(r, 500));
    stop.abort();
    await Promise.all(subscriptions);

    for (const [s, session] of sessions.entries()) {
      const messages = await storage.listMessages(session.id);
      expect(messages.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
      for (let p = 0; p < 3; p++) {
        const [user, answer] = [messages[2 * p]!, messages[2 * p + 1]!];
        expect(texts(user)).toEqual([prompt(s, p)]);
        expect(answer.info.role === "assistant" && answer.info.parentID).toBe(user.info.id);
        expect(answer.info.role === "assistant" && answer.info.time.completed).toBeTypeOf("number");
        expect(answer.info.role === "assistant" && answer.info.finish).toBe("stop");
        // The answer is stored once: exactly one final text, whatever was redone.
        expect(texts(answer).filter((t) => t === `answer to ${prompt(s, p)}`)).toHaveLength(1);
      }
      // Usage exact: the session's totals are the sum of the steps stored, each step the script's usage.
      const stored = (await storage.getSession(session.id))!;
      const steps = messages.flatMap((m) => m.parts.filter((p) => p.type === "step-finish"));
      const totals = stepTotals(messages.flatMap((m) => m.parts));
      expect(totals).toEqual({ input: steps.length * STEP_USAGE.input, output: steps.length * STEP_USAGE.output });
      expect({ input: stored.usage.tokens.input, output: stored.usage.tokens.output }).toEqual(totals);
      expect(stored.usage.steps).toBe(steps.length);
      // Subscribers: every event once, numbered 1, 2, 3… with no gap; each prompt's final answer among them.
      const events = seen.get(session.id)!;
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      const completed = events.filter((e) => e.event.type === "message.updated" && e.event.message.role === "assistant" && e.event.message.time.completed !== undefined);
      expect(new Set(completed.map((e) => (e.event.type === "message.updated" ? e.event.message.id : "")))).toEqual(new Set(messages.filter((m) => m.info.role === "assistant").map((m) => m.info.id)));
    }
    // No tool process outlives its killed worker (each `sleep 2` would still run for a while), and none is left at the end.
    expect(orphanCandidates.length).toBeGreaterThan(0);
    expect(survivors).toEqual([]);
    expect(spawnSync("pgrep", ["-f", marker]).stdout.toString().trim()).toBe("");

    await Promise.all([...workers].map(async (w) => {
      w.child.kill("SIGTERM");
      expect(await w.exited).toBe(0);
    }));
    await queue.close();
    await storage.close();
  });

  it("an approval asked on one worker, answered from another process, resumes on another worker", { timeout: 120_000 }, async () => {
    const schema = "approvals";
    const name = "approval_turns";
    const queue = createQueue({ connectionString: server.connectionString, schema, name });
    const storage = await PostgresStorage.open({ connectionString: server.connectionString, schema });
    // The "HTTP process": answers approvals; its answer enqueues the resume.
    const host = createAgent({ model: scriptedModel(), storage, tools: [deployTool], permission: { deploy: "ask" }, handOffReply: queue.handOffReply });
    const first = startWorker(schema, name);
    const firstID = await first.id;
    const session = await host.sessions.create();
    const job = await queue.enqueuePrompt(session.id, "ask: prod/api");
    await until(async () => (await queue.outcome(job))?.state === "completed", 30_000, "the turn to wait");
    expect((await queue.outcome(job))?.output).toMatchObject({ state: "waiting", worker: firstID });
    // The worker that asked is gone; another takes the resume.
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    const second = startWorker(schema, name);
    const secondID = await second.id;
    const [request] = await host.permissions.pending(session.id);
    await host.permissions.reply(request!.id, "once");
    await until(async () => {
      const last = (await storage.listMessages(session.id)).at(-1)?.info;
      return last?.role === "assistant" && last.time.completed !== undefined;
    }, 30_000, "the resumed turn");
    const messages = await storage.listMessages(session.id);
    expect(messages.map((m) => m.info.role)).toEqual(["user", "assistant"]);
    expect(messages[1]!.parts.find((p) => p.type === "tool")).toMatchObject({ tool: "deploy", state: { status: "completed" } });
    expect(texts(messages[1]!)).toEqual(["deploying for ask: prod/api", "answer to ask: prod/api"]);
    // The resume job's outcome is recorded once the worker has finished the turn, a moment after
    // the message is stored: wait for both jobs' outcomes.
    const workersOf = async () =>
      (await queue.boss.findJobs(name, { key: session.id })).map((j) => (j.output as { worker?: string } | undefined)?.worker).filter(Boolean);
    await until(async () => (await workersOf()).length >= 2, 30_000, "both jobs' outcomes");
    expect(await workersOf()).toEqual(expect.arrayContaining([firstID, secondID]));
    second.child.kill("SIGTERM");
    await second.exited;
    await queue.close();
    await storage.close();
  });

  it("a turn that kills its worker every time is given up after maxAttempts, the reason on the session and in the dead letters; the session's next prompt runs", { timeout: 120_000 }, async () => {
    const schema = "poison";
    const name = "poison_turns";
    const queue = createQueue({ connectionString: server.connectionString, schema, name, maxAttempts: 2 });
    const storage = await PostgresStorage.open({ connectionString: server.connectionString, schema });
    const host = createAgent({ model: scriptedModel(), storage });
    const session = await host.sessions.create();
    const poison = await queue.enqueuePrompt(session.id, "poison: die");
    const next = await queue.enqueuePrompt(session.id, "after the poison");
    let deaths = 0;
    const nextDone = async () => (await queue.outcome(next))?.state === "completed";
    const keepOneAlive = (async () => {
      while (!(await nextDone())) {
        const w = startWorker(schema, name, { maxAttempts: 2 });
        const result = await Promise.race([w.exited.then(() => "died" as const), until(nextDone, 100_000, "next").then(() => "done" as const)]);
        if (result === "died") deaths++;
        else {
          w.child.kill("SIGTERM");
          await w.exited;
        }
      }
    })();
    await until(async () => (await queue.outcome(next))?.state === "completed", 100_000, "the prompt after the poison");
    await keepOneAlive;
    expect(deaths).toBeGreaterThanOrEqual(2);
    expect((await queue.outcome(poison))?.output).toMatchObject({ state: "failed" });
    const stored = (await storage.getSession(session.id))!;
    expect(queueNotes(stored.metadata).failed).toMatchObject({ jobID: poison, reason: expect.stringMatching(/given up after 2 attempts/) });
    const dead = await queue.deadLetters();
    expect(dead).toMatchObject([{ sessionID: session.id, reason: expect.stringMatching(/given up/) }]);
    const messages = await storage.listMessages(session.id);
    expect(messages.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages[1]!.info).toMatchObject({ finish: "aborted", error: { message: expect.stringMatching(/given up/) } });
    expect(texts(messages[3]!)).toEqual(["answer to after the poison"]);
    await queue.close();
    await storage.close();
  });
});
