import { describe, expect, it, vi } from "vitest";
import { fromConfig } from "./config.js";
import { CorrectedError, DeniedError, NotFoundError, RejectedError } from "./errors.js";
import { PermissionRequest, type Reply } from "./request.js";
import type { Ruleset } from "./rule.js";
import { type AskInput, PermissionService, type RepliedEvent } from "./service.js";

const BASH_ASK = fromConfig({ bash: { "*": "ask", "ls *": "allow", "rm -rf *": "deny" } });

function input(overrides: Partial<AskInput> = {}): AskInput {
  return { sessionID: "s1", permission: "bash", patterns: ["git push"], always: ["git push *"], ruleset: BASH_ASK, ...overrides };
}

/** Resolves once the service has a pending request (asks are async: hooks run first). */
async function nextPending(service: PermissionService, sessionID?: string, count = 1): Promise<PermissionRequest[]> {
  await vi.waitFor(() => expect(service.pending(sessionID).length).toBeGreaterThanOrEqual(count));
  return service.pending(sessionID);
}

describe("PermissionService.ask — rules", () => {
  it("resolves without a request when every pattern is allowed", async () => {
    const approve = vi.fn();
    const service = new PermissionService({ approve });
    await expect(service.ask(input({ patterns: ["ls", "ls -la"] }))).resolves.toBeUndefined();
    await expect(service.ask(input({ patterns: [] }))).resolves.toBeUndefined();
    expect(approve).not.toHaveBeenCalled();
    expect(service.pending()).toEqual([]);
  });

  it("throws DeniedError naming the rule when any pattern is denied, even if another asks", async () => {
    const approve = vi.fn();
    const service = new PermissionService({ approve });
    const error = await service.ask(input({ patterns: ["git push", "rm -rf /"] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeniedError);
    const denied = error as DeniedError;
    expect(denied.name).toBe("DeniedError");
    expect(denied.rule).toEqual({ permission: "bash", pattern: "rm -rf *", action: "deny" });
    expect(denied.pattern).toBe("rm -rf /");
    expect(denied.message).toContain("rm -rf *");
    expect(approve).not.toHaveBeenCalled();
  });

  it("asks one request covering only the patterns that ask", async () => {
    const seen: PermissionRequest[] = [];
    const service = new PermissionService({ approve: (r) => (seen.push(r), "once") });
    await service.ask(input({ patterns: ["ls", "git push", "npm publish"], metadata: { command: "x" }, tool: { messageID: "m1", callID: "c1" } }));
    expect(seen).toHaveLength(1);
    const request = PermissionRequest.parse(seen[0]);
    expect(request).toMatchObject({
      sessionID: "s1",
      permission: "bash",
      patterns: ["git push", "npm publish"],
      always: ["git push *"],
      metadata: { command: "x" },
      tool: { messageID: "m1", callID: "c1" },
    });
    expect(request.id).toMatch(/^per_/);
    expect(typeof request.time.created).toBe("number");
  });

  it("rejects malformed input", async () => {
    const service = new PermissionService();
    await expect(service.ask(input({ sessionID: "" }))).rejects.toThrow();
    await expect(service.ask(input({ patterns: "ls" as never }))).rejects.toThrow();
    await expect(service.ask(input({ ruleset: undefined as never }))).rejects.toThrow();
  });
});

describe("PermissionService — inline approve callback", () => {
  it("once resolves this call only", async () => {
    const approve = vi.fn(async () => "once" as const);
    const service = new PermissionService({ approve });
    await service.ask(input());
    await service.ask(input());
    expect(approve).toHaveBeenCalledTimes(2);
    expect(service.approved("s1")).toEqual([]);
  });

  it("always approves the always patterns for the rest of the session only", async () => {
    const onApprovedChanged = vi.fn();
    const approve = vi.fn(async () => "always" as const);
    const service = new PermissionService({ approve, onApprovedChanged });
    await service.ask(input({ patterns: ["git push origin"], always: ["git push *"] }));
    expect(service.approved("s1")).toEqual([{ permission: "bash", pattern: "git push *", action: "allow" }]);
    expect(onApprovedChanged).toHaveBeenCalledWith("s1", [{ permission: "bash", pattern: "git push *", action: "allow" }]);
    await service.ask(input({ patterns: ["git push --tags"] }));
    expect(approve).toHaveBeenCalledTimes(1);
    await service.ask(input({ sessionID: "s2", patterns: ["git push --tags"] }));
    expect(approve).toHaveBeenCalledTimes(2);
  });

  it("approvals never override a deny rule of the ruleset", async () => {
    const service = new PermissionService({ approve: async () => "always" as const });
    await service.ask(input({ patterns: ["rm x"], always: ["*"] }));
    await expect(service.ask(input({ patterns: ["rm -rf /"] }))).rejects.toBeInstanceOf(DeniedError);
  });

  it("reject throws RejectedError; reject with feedback throws CorrectedError carrying it", async () => {
    let reply: Reply = "reject";
    const service = new PermissionService({ approve: async () => reply });
    const rejected = await service.ask(input()).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(RejectedError);
    expect((rejected as RejectedError).name).toBe("RejectedError");
    expect((rejected as RejectedError).reason).toBe("user");
    reply = { reject: "use git push --dry-run first" };
    const corrected = await service.ask(input()).catch((e: unknown) => e);
    expect(corrected).toBeInstanceOf(CorrectedError);
    expect((corrected as CorrectedError).name).toBe("CorrectedError");
    expect((corrected as CorrectedError).feedback).toBe("use git push --dry-run first");
    expect((corrected as CorrectedError).message).toContain("use git push --dry-run first");
  });

  it("an invalid reply or a throwing callback fails the ask", async () => {
    const bad = new PermissionService({ approve: async () => "sure" as never });
    await expect(bad.ask(input())).rejects.toThrow();
    expect(bad.pending()).toEqual([]);
    const boom = new PermissionService({
      approve: async () => {
        throw new Error("ui crashed");
      },
    });
    await expect(boom.ask(input())).rejects.toThrow("ui crashed");
    expect(boom.pending()).toEqual([]);
  });

  it("awaits onAsked before calling approve and onReplied before the call goes on", async () => {
    const order: string[] = [];
    const service = new PermissionService({
      onAsked: async () => {
        await new Promise((r) => setTimeout(r, 5));
        order.push("asked");
      },
      approve: async () => (order.push("approve"), "once" as const),
      onReplied: async ({ reply }) => {
        await new Promise((r) => setTimeout(r, 5));
        order.push(`replied:${String(reply)}`);
      },
    });
    await service.ask(input());
    order.push("resumed");
    expect(order).toEqual(["asked", "approve", "replied:once", "resumed"]);
  });

  it("a failing onAsked fails the ask and leaves nothing pending", async () => {
    const approve = vi.fn();
    const service = new PermissionService({ onAsked: () => Promise.reject(new Error("db down")), approve });
    await expect(service.ask(input())).rejects.toThrow("db down");
    expect(service.pending()).toEqual([]);
    expect(approve).not.toHaveBeenCalled();
  });

  it("tells the callback to stop (its signal aborts) when the request is settled elsewhere", async () => {
    let callbackSignal: AbortSignal | undefined;
    const service = new PermissionService({
      approve: (_request, { signal }) => {
        callbackSignal = signal;
        return new Promise<Reply>(() => {}); // a user who never answers
      },
    });
    const asked = service.ask(input());
    const [request] = await nextPending(service);
    expect(callbackSignal?.aborted).toBe(false);
    await service.reply(request!.id, "once");
    await asked;
    expect(callbackSignal?.aborted).toBe(true);
  });
});

describe("PermissionService — pending requests answered through reply()", () => {
  it("keeps the request pending until reply", async () => {
    const asked: PermissionRequest[] = [];
    const replied: RepliedEvent[] = [];
    const service = new PermissionService({ onAsked: (r) => void asked.push(r), onReplied: (e) => void replied.push(e) });
    let settled = false;
    const call = service.ask(input()).then(() => (settled = true));
    const [request] = await nextPending(service, "s1");
    expect(asked).toEqual([request]);
    expect(service.pending("other")).toEqual([]);
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    await service.reply(request!.id, "once");
    await call;
    expect(settled).toBe(true);
    expect(service.pending()).toEqual([]);
    expect(replied).toEqual([{ request, reply: "once" }]);
  });

  it("unknown ids throw NotFoundError; a request cannot be answered twice", async () => {
    const service = new PermissionService();
    const error = await service.reply("per_nope", "once").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).name).toBe("NotFoundError");
    expect((error as NotFoundError).requestID).toBe("per_nope");
    const call = service.ask(input());
    const [request] = await nextPending(service);
    await service.reply(request!.id, "once");
    await call;
    await expect(service.reply(request!.id, "once")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("rejects an invalid reply and keeps the request pending", async () => {
    const service = new PermissionService();
    void service.ask(input()).catch(() => {});
    const [request] = await nextPending(service);
    await expect(service.reply(request!.id, "maybe" as never)).rejects.toThrow();
    expect(service.pending()).toHaveLength(1);
  });

  it("always resolves the session's other pending requests it now covers", async () => {
    const replied: RepliedEvent[] = [];
    const service = new PermissionService({ onReplied: (e) => void replied.push(e) });
    const first = service.ask(input({ patterns: ["git push origin"], always: ["git push *"] }));
    const covered = service.ask(input({ patterns: ["git push --tags"], always: ["git push *"] }));
    const notCovered = service.ask(input({ patterns: ["npm publish"], always: ["npm publish *"] }));
    const otherSession = service.ask(input({ sessionID: "s2", patterns: ["git push x"] }));
    const opaque = service.ask(input({ patterns: ["git push $(evil)"], always: [], opaque: true }));
    const requests = await nextPending(service, undefined, 5);
    await service.reply(requests[0]!.id, "always");
    await first;
    await covered;
    expect(replied.map((e) => [e.request.id, e.reply])).toEqual([
      [requests[0]!.id, "always"],
      [requests[1]!.id, "always"],
    ]);
    expect(service.pending().map((r) => r.id)).toEqual([requests[2]!.id, requests[3]!.id, requests[4]!.id]);
    for (const r of service.pending()) await service.reply(r.id, "once");
    await Promise.all([notCovered, otherSession, opaque]);
  });

  it("reject also rejects the session's other pending requests, not other sessions'", async () => {
    const service = new PermissionService();
    const a = service.ask(input()).catch((e: unknown) => e);
    const b = service.ask(input({ permission: "edit", patterns: ["x.ts"], ruleset: [] })).catch((e: unknown) => e);
    const c = service.ask(input({ sessionID: "s2" })).catch((e: unknown) => e);
    const requests = await nextPending(service, undefined, 3);
    await service.reply(requests[0]!.id, "reject");
    expect(await a).toMatchObject({ name: "RejectedError", reason: "user" });
    expect(await b).toMatchObject({ name: "RejectedError", reason: "session", permission: "edit" });
    expect(service.pending().map((r) => r.sessionID)).toEqual(["s2"]);
    await service.reply(requests[2]!.id, "once");
    expect(await c).toBeUndefined();
  });

  it("reject with feedback corrects that call only", async () => {
    const service = new PermissionService();
    const a = service.ask(input()).catch((e: unknown) => e);
    const b = service.ask(input({ patterns: ["npm publish"] }));
    const requests = await nextPending(service, undefined, 2);
    await service.reply(requests[0]!.id, { reject: "not now" });
    expect(await a).toBeInstanceOf(CorrectedError);
    expect(service.pending().map((r) => r.id)).toEqual([requests[1]!.id]);
    await service.reply(requests[1]!.id, "once");
    await b;
  });

  it("abort while waiting rejects the request and reports it replied", async () => {
    const replied: RepliedEvent[] = [];
    const service = new PermissionService({ onReplied: (e) => void replied.push(e) });
    const controller = new AbortController();
    const call = service.ask(input({ signal: controller.signal })).catch((e: unknown) => e);
    const [request] = await nextPending(service);
    controller.abort();
    const error = await call;
    expect(error).toBeInstanceOf(RejectedError);
    expect((error as RejectedError).reason).toBe("aborted");
    expect((error as RejectedError).requestID).toBe(request!.id);
    expect(service.pending()).toEqual([]);
    expect(replied).toEqual([{ request, reply: "reject" }]);
    await expect(service.reply(request!.id, "once")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("an already aborted signal rejects at once when asking is needed", async () => {
    const service = new PermissionService();
    const controller = new AbortController();
    controller.abort();
    await expect(service.ask(input({ signal: controller.signal }))).rejects.toBeInstanceOf(RejectedError);
    await expect(service.ask(input({ signal: controller.signal, patterns: ["ls"] }))).resolves.toBeUndefined();
    expect(service.pending()).toEqual([]);
  });

  it("reports hook errors from reply() but still settles the call", async () => {
    const service = new PermissionService({ onReplied: () => Promise.reject(new Error("write failed")) });
    const call = service.ask(input());
    const [request] = await nextPending(service);
    await expect(service.reply(request!.id, "once")).rejects.toThrow("write failed");
    await expect(call).resolves.toBeUndefined();
  });
});

describe("PermissionService — opaque asks", () => {
  const allowAll: Ruleset = fromConfig({ "*": "allow", bash: { "rm *": "deny" } });

  it("asks even where allow rules and approvals match, but deny rules still apply", async () => {
    const approve = vi.fn(async (_request: PermissionRequest) => "always" as const);
    const service = new PermissionService({ approve });
    await service.ask(input({ ruleset: allowAll, patterns: ["eval $x"], always: [], opaque: true }));
    expect(approve).toHaveBeenCalledTimes(1);
    expect(approve.mock.calls[0]![0]).toMatchObject({ opaque: true, patterns: ["eval $x"] });
    await service.ask(input({ ruleset: allowAll, patterns: ["eval $x"], always: [], opaque: true }));
    expect(approve).toHaveBeenCalledTimes(2);
    await expect(service.ask(input({ ruleset: allowAll, patterns: ["sudo rm -rf /", "rm -rf /"], opaque: true }))).rejects.toBeInstanceOf(
      DeniedError,
    );
  });
});

describe("PermissionService — surviving a restart", () => {
  /** A stand-in for session storage: what the hooks persisted, as JSON. */
  function persisted() {
    const store = { pending: new Map<string, unknown>(), approved: new Map<string, unknown>() };
    const hooks = {
      onAsked: (r: PermissionRequest) => void store.pending.set(r.id, JSON.parse(JSON.stringify(r))),
      onReplied: ({ request }: RepliedEvent) => void store.pending.delete(request.id),
      onApprovedChanged: (sessionID: string, rules: Ruleset) => void store.approved.set(sessionID, JSON.parse(JSON.stringify(rules))),
    };
    const load = (sessionID: string) => ({
      approved: (store.approved.get(sessionID) ?? []) as Ruleset,
      pending: [...store.pending.values()].map((r) => PermissionRequest.parse(r)).filter((r) => r.sessionID === sessionID),
    });
    return { store, hooks, load };
  }
  const tool = { messageID: "m1", callID: "call-1" };

  it("a reply given after the restart, before the resume, is picked up by the resumed call", async () => {
    const { hooks, load } = persisted();
    const before = new PermissionService(hooks);
    void before.ask(input({ tool })); // process A stops while this waits
    await nextPending(before);

    const after = new PermissionService(hooks);
    after.restore("s1", load("s1"));
    const [request] = after.pending("s1");
    expect(request?.tool).toEqual(tool);
    await after.reply(request!.id, "once");
    expect(after.pending()).toEqual([]);
    await expect(after.ask(input({ tool }))).resolves.toBeUndefined(); // the resumed tool call
    // The stored answer is used once: the same call asking again is a new request.
    void after.ask(input({ tool })).catch(() => {});
    expect((await nextPending(after))[0]!.id).not.toBe(request!.id);
  });

  it("a reply given after the resume settles the resumed call, attached to the stored request", async () => {
    const { hooks, load } = persisted();
    const before = new PermissionService(hooks);
    void before.ask(input({ tool }));
    const [original] = await nextPending(before);

    const after = new PermissionService(hooks);
    after.restore("s1", load("s1"));
    const resumed = after.ask(input({ tool })).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 5));
    expect(after.pending().map((r) => r.id)).toEqual([original!.id]); // no second request
    await after.reply(original!.id, { reject: "do it differently" });
    expect(await resumed).toBeInstanceOf(CorrectedError);
  });

  it("restores approvals, so an always given before the restart still counts", async () => {
    const { hooks, load } = persisted();
    const before = new PermissionService({ ...hooks, approve: async () => "always" as const });
    await before.ask(input({ patterns: ["git push origin"], always: ["git push *"] }));
    const after = new PermissionService({ ...hooks, approve: async () => "reject" as const });
    after.restore("s1", load("s1"));
    expect(after.approved("s1")).toEqual([{ permission: "bash", pattern: "git push *", action: "allow" }]);
    await expect(after.ask(input({ patterns: ["git push --tags"] }))).resolves.toBeUndefined();
  });

  it("with an approve callback, the resumed call's stored request goes to the callback", async () => {
    const { hooks, load } = persisted();
    const before = new PermissionService(hooks);
    void before.ask(input({ tool }));
    const [original] = await nextPending(before);
    const approve = vi.fn(async () => "once" as const);
    const after = new PermissionService({ ...hooks, approve });
    after.restore("s1", load("s1"));
    await after.ask(input({ tool }));
    expect(approve).toHaveBeenCalledWith(expect.objectContaining({ id: original!.id }), expect.anything());
  });

  it("a rejection cascading to a restored request reaches its resumed call", async () => {
    const { hooks, load } = persisted();
    const before = new PermissionService(hooks);
    void before.ask(input({ tool }));
    void before.ask(input({ tool: { messageID: "m1", callID: "call-2" }, patterns: ["npm publish"] }));
    await nextPending(before, undefined, 2);
    const after = new PermissionService(hooks);
    after.restore("s1", load("s1"));
    const [first] = after.pending("s1");
    await after.reply(first!.id, "reject");
    expect(after.pending()).toEqual([]);
    await expect(after.ask(input({ tool: { messageID: "m1", callID: "call-2" }, patterns: ["npm publish"] }))).rejects.toMatchObject({
      name: "RejectedError",
      reason: "session",
    });
  });

  it("drops a restored request a resumed call no longer needs, reporting it replied", async () => {
    const { store, hooks, load } = persisted();
    const before = new PermissionService(hooks);
    void before.ask(input({ tool }));
    await nextPending(before);
    const after = new PermissionService(hooks);
    after.restore("s1", load("s1"));
    await after.ask(input({ tool, ruleset: fromConfig({ bash: "allow" }) }));
    expect(after.pending()).toEqual([]);
    expect(store.pending.size).toBe(0);
  });

  it("restore validates its input and skips ids already pending", async () => {
    const service = new PermissionService();
    void service.ask(input({ tool })).catch(() => {});
    const [request] = await nextPending(service);
    service.restore("s1", { pending: [request!] });
    expect(service.pending()).toHaveLength(1);
    expect(() => service.restore("other", { pending: [request!] })).toThrow();
    expect(() => service.restore("s1", { approved: [{ permission: "bash", pattern: "*", action: "yes" }] as never })).toThrow();
  });

  it("forget drops a session's state and rejects its waiting calls", async () => {
    const service = new PermissionService({ approve: async () => "always" as const });
    await service.ask(input());
    const waiting = new PermissionService();
    const call = waiting.ask(input()).catch((e: unknown) => e);
    await nextPending(waiting);
    waiting.forget("s1");
    expect(await call).toBeInstanceOf(RejectedError);
    expect(waiting.pending()).toEqual([]);
    service.forget("s1");
    expect(service.approved("s1")).toEqual([]);
  });
});

describe("request ids", () => {
  it("are per_-prefixed, unique and ascending in creation order", async () => {
    const service = new PermissionService({ now: () => 1_700_000_000_000 });
    for (let i = 0; i < 50; i++) void service.ask(input({ patterns: [`cmd ${i}`] })).catch(() => {});
    const requests = await nextPending(service, undefined, 50);
    const ids = requests.map((r) => r.id);
    expect(new Set(ids).size).toBe(50);
    expect([...ids].sort()).toEqual(ids);
    expect(requests.map((r) => r.patterns[0])).toEqual(Array.from({ length: 50 }, (_, i) => `cmd ${i}`));
    for (const id of ids) expect(id).toMatch(/^per_[0-9a-f]{16}[0-9a-z]{10}$/);
  });
});
