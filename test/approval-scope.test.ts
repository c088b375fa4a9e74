// Approvals are scoped: an answer a client sends is accepted only for requests of the session it
// names and of that session's subagent sessions. Another session's waiting command never runs,
// whichever reply path the answer takes (UI approvals, permissions.replyFor, the queue's resume).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApprovalScopeError, createAgent, replyToUIApprovals, type Agent, type PermissionRequest, type Run } from "@lathe/core";
import { MemoryStorage } from "@lathe/storage";
import { mockModel } from "@lathe/mock";
import { startTurn } from "../packages/queue/src/start-turn.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lathe-approval-scope-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An agent whose every bash call waits for an answer; each prompt's model runs `touch <marker>`. */
function setup() {
  const storage = new MemoryStorage();
  // Each call: a bash call touching the marker its prompt names, or — once that call has its result — an answer.
  const script = Array.from({ length: 12 }, () => (call: { prompt: Array<{ role: string }> }) => {
    if (call.prompt.at(-1)?.role === "tool") return { text: "done" };
    const marker = /touch-me:(\S+?)"/.exec(JSON.stringify(call.prompt))?.[1] ?? "none";
    return { toolCalls: [{ name: "bash", input: { command: `touch ${join(dir, marker)}`, description: "touch" } }] };
  });
  const agent = createAgent({ model: mockModel(script), storage, cwd: dir, snapshots: false, configDir: false, dataDir: join(dir, ".data"), permission: { bash: "ask" } });
  return { agent, storage };
}

async function waiting(agent: Agent, sessionID: string): Promise<PermissionRequest> {
  for (let i = 0; i < 200; i++) {
    const [request] = await agent.permissions.pending(sessionID);
    if (request) return request;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no request waits in ${sessionID}`);
}

async function victimWaiting(agent: Agent) {
  const victim = await agent.sessions.create({ title: "victim" });
  const attacker = await agent.sessions.create({ title: "attacker" });
  const run: Run = agent.prompt(victim.id, "touch-me:victim-ran");
  const request = await waiting(agent, victim.id);
  return { victim, attacker, run, request };
}

describe("a client's answer to another session's request is refused", () => {
  it("replyToUIApprovals: ApprovalScopeError, the request still waits, the command never runs", async () => {
    const { agent } = setup();
    const { attacker, run, request } = await victimWaiting(agent);
    const error = await replyToUIApprovals(agent, attacker.id, [{ id: request.id, approved: true }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApprovalScopeError);
    expect(error).toMatchObject({ requestID: request.id, sessionID: attacker.id });
    // As UI messages too (useChat's addToolApprovalResponse state).
    const messages = [{ id: "m", role: "assistant" as const, parts: [{ type: "tool-bash", toolCallId: "c", state: "approval-responded", input: {}, approval: { id: request.id, approved: true } }] }];
    await expect(replyToUIApprovals(agent, attacker.id, messages as never)).rejects.toBeInstanceOf(ApprovalScopeError);
    expect((await agent.permissions.pending()).map((r) => r.id)).toEqual([request.id]);
    expect(existsSync(join(dir, "victim-ran"))).toBe(false);
    run.abort("test over");
    await run.catch(() => {});
    expect(existsSync(join(dir, "victim-ran"))).toBe(false);
    await agent.close();
  });

  it("permissions.replyFor refuses; the host's own permissions.reply stays global", async () => {
    const { agent } = setup();
    const { victim, attacker, run, request } = await victimWaiting(agent);
    await expect(agent.permissions.replyFor(attacker.id, request.id, "once")).rejects.toBeInstanceOf(ApprovalScopeError);
    await expect(agent.permissions.replyFor(attacker.id, "per_unknown", "once")).rejects.toThrow(/No pending permission request/);
    expect(existsSync(join(dir, "victim-ran"))).toBe(false);
    await agent.permissions.replyFor(victim.id, request.id, "once");
    await run;
    expect(existsSync(join(dir, "victim-ran"))).toBe(true);
    await agent.close();
  });

  it("the queue's resume job: answers naming another session's request end the job as refused", async () => {
    const { agent, storage } = setup();
    const { attacker, run, request } = await victimWaiting(agent);
    const outcome = await startTurn(agent, storage, { kind: "resume", sessionID: attacker.id, answers: [{ requestID: request.id, reply: "always" }] }, "job_1", new Set());
    expect(outcome).toEqual({ done: { state: "refused", reason: expect.stringContaining(request.id) } });
    expect((await agent.permissions.pending()).map((r) => r.id)).toEqual([request.id]);
    run.abort("test over");
    await run.catch(() => {});
    expect(existsSync(join(dir, "victim-ran"))).toBe(false);
    await agent.close();
  });

  it("a session's client answers its subagent sessions' requests", async () => {
    const { agent } = setup();
    const parent = await agent.sessions.create({ title: "parent" });
    const child = await agent.sessions.create({ parentID: parent.id, kind: "task" });
    const grandchild = await agent.sessions.create({ parentID: child.id, kind: "task" });
    const run = agent.prompt(grandchild.id, "touch-me:grandchild-ran");
    const request = await waiting(agent, grandchild.id);
    const sibling = await agent.sessions.create({ title: "sibling" });
    await expect(replyToUIApprovals(agent, sibling.id, [{ id: request.id, approved: true }])).rejects.toBeInstanceOf(ApprovalScopeError);
    // The child is not the grandchild's ancestor's parent: a descendant cannot answer upwards.
    const other = agent.prompt(parent.id, "touch-me:parent-ran");
    const parentRequest = await waiting(agent, parent.id);
    await expect(agent.permissions.replyFor(grandchild.id, parentRequest.id, "once")).rejects.toBeInstanceOf(ApprovalScopeError);
    expect(await replyToUIApprovals(agent, parent.id, [{ id: request.id, approved: true }])).toEqual({ replied: [request.id], stale: [] });
    await run;
    expect(existsSync(join(dir, "grandchild-ran"))).toBe(true);
    other.abort("test over");
    await other.catch(() => {});
    expect(existsSync(join(dir, "parent-ran"))).toBe(false);
    await agent.close();
  });
});
