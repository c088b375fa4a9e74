/**
 * The conformance suite every {@link Storage} adapter must pass — Lathe's own and anyone else's
 * (Redis, S3, …). Call {@link runStorageConformance} from a vitest test file:
 *
 * ```ts
 * import { runStorageConformance } from "@lathe/storage/conformance";
 * runStorageConformance("redis", { create: async () => new RedisStorage(url), cleanup: flushAll });
 * ```
 *
 * @module @lathe/storage/conformance
 */
import { Message, MessageWithParts, Part, Session, createId } from "@lathe/message";
import { hostname } from "node:os";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  makeAssistantMessage,
  makeEveryPart,
  makeRichSession,
  makeSession,
  makeTextPart,
  makeUserMessage,
} from "./conformance-fixtures.js";
import { describeCorruption, type CorruptRecord } from "./conformance-corruption.js";
import type { CorruptRecordError } from "./errors.js";
import type { Storage } from "./storage.js";

/** How the suite gets a fresh, empty store for each test, and what it does afterwards. */
export interface StorageConformanceOptions {
  /**
   * A new, empty store. Called before every test, with the `onCorrupt` handler to pass to the
   * adapter (the corruption tests read what it was called with).
   */
  create: (hooks: StorageTestHooks) => Promise<Storage>;
  /** Called after every test, once the suite has closed the store: delete files, drop schemas. */
  cleanup?: (storage: Storage) => Promise<void> | void;
  /**
   * Opens the same data again after the suite closed `storage`: the persistence and migration tests
   * run only for adapters that give it (memory storage keeps nothing to reopen).
   */
  reopen?: (storage: Storage) => Promise<Storage>;
  /**
   * Damages a stored record in place: the corruption tests (damaged sessions, messages and parts are
   * reported and skipped, never rewritten) run only for adapters that give it.
   */
  corrupt?: CorruptRecord;
}

/** What the suite hands {@link StorageConformanceOptions.create} to wire into the adapter. */
export interface StorageTestHooks {
  /** Pass as the adapter's `onCorrupt` option. */
  onCorrupt: (error: CorruptRecordError) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);

const sorted = (list: string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Registers (with vitest's `describe`/`it`) the tests that check `options.create()`'s storage
 * against the {@link Storage} contract: round trips validated with the message model's zod schemas,
 * id order, upserts, batch atomicity and validation, paging, child sessions, removal, leases, and —
 * when `options.reopen` is given — persistence and the stored schema version.
 */
export function runStorageConformance(name: string, options: StorageConformanceOptions): void {
  describe(`Storage conformance: ${name}`, () => {
    let storage: Storage;
    const opened: Storage[] = [];
    let reported: CorruptRecordError[] = [];

    beforeEach(async () => {
      reported = [];
      storage = await options.create({ onCorrupt: (error) => reported.push(error) });
      opened.push(storage);
    });

    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
      await options.cleanup?.(storage);
    });

    /** Writes a session with one user message of `parts` text parts; returns their ids. */
    async function seedSession(parts = 3, fields: Partial<Session> = {}) {
      const session = makeSession(fields);
      const message = makeUserMessage(session.id);
      const partList = Array.from({ length: parts }, (_, i) => makeTextPart(session.id, message.id, `part ${i}`));
      await storage.write({ sessions: [session], messages: [message], parts: partList });
      return { session, message, parts: partList };
    }

    describe("sessions", () => {
      it("returns undefined for a session that does not exist", async () => {
        expect(await storage.getSession(createId("session"))).toBeUndefined();
      });

      it("round-trips a session with every field, valid against the Session schema", async () => {
        const parent = makeSession();
        const rich = makeRichSession(parent.id);
        await storage.write({ sessions: [parent, rich] });
        const loaded = await storage.getSession(rich.id);
        expect(Session.parse(loaded)).toEqual(rich);
        expect(loaded).toEqual(rich);
        expect(await storage.getSession(parent.id)).toEqual(parent);
      });

      it("replaces a session written again with the same id (upsert)", async () => {
        const session = makeSession({ title: "first" });
        await storage.write({ sessions: [session] });
        await storage.write({ sessions: [{ ...session, title: "second", time: { ...session.time, updated: session.time.updated + 1 } }] });
        const loaded = await storage.getSession(session.id);
        expect(loaded?.title).toBe("second");
        expect(loaded?.time.updated).toBe(session.time.updated + 1);
        expect(ids((await storage.listSessions()).sessions)).toEqual([session.id]);
      });

      it("lists sessions in id order whatever the order they were written in", async () => {
        const sessions = Array.from({ length: 6 }, () => makeSession());
        const shuffled = [sessions[3], sessions[0], sessions[5], sessions[1], sessions[4], sessions[2]] as Session[];
        await storage.write({ sessions: shuffled.slice(0, 3) });
        for (const s of shuffled.slice(3)) await storage.write({ sessions: [s] });
        const page = await storage.listSessions();
        expect(ids(page.sessions)).toEqual(ids(sessions));
        expect(page.cursor).toBeUndefined();
        for (const s of page.sessions) expect(Session.safeParse(s).success).toBe(true);
      });

      it("orders ids byte-wise, not by a locale's collation", async () => {
        const prefix = createId("session");
        const sessions = ["B", "Z", "a", "b", "_"].map((suffix) => makeSession({ id: `${prefix}${suffix}` }));
        await storage.write({ sessions: [...sessions].reverse() });
        expect(ids((await storage.listSessions()).sessions)).toEqual(sorted(ids(sessions)));
        const page = await storage.listSessions({ limit: 2 });
        expect(ids((await storage.listSessions({ cursor: page.cursor })).sessions)).toEqual(sorted(ids(sessions)).slice(2));
      });

      it("lists nothing, without a cursor, when there are no sessions", async () => {
        expect(await storage.listSessions()).toEqual({ sessions: [] });
      });

      it("pages through sessions with a cursor, the last page without one", async () => {
        const sessions = Array.from({ length: 7 }, () => makeSession());
        await storage.write({ sessions });
        const first = await storage.listSessions({ limit: 3 });
        expect(ids(first.sessions)).toEqual(ids(sessions.slice(0, 3)));
        expect(first.cursor).toBeDefined();
        const second = await storage.listSessions({ limit: 3, cursor: first.cursor });
        expect(ids(second.sessions)).toEqual(ids(sessions.slice(3, 6)));
        const third = await storage.listSessions({ limit: 3, cursor: second.cursor });
        expect(ids(third.sessions)).toEqual(ids(sessions.slice(6)));
        expect(third.cursor).toBeUndefined();
      });

      it("ends paging on a full last page: no cursor when nothing follows", async () => {
        const sessions = Array.from({ length: 4 }, () => makeSession());
        await storage.write({ sessions });
        const first = await storage.listSessions({ limit: 2 });
        const second = await storage.listSessions({ limit: 2, cursor: first.cursor });
        expect(ids(second.sessions)).toEqual(ids(sessions.slice(2)));
        expect(second.cursor).toBeUndefined();
      });

      it("returns at most 100 sessions when no limit is given", async () => {
        const sessions = Array.from({ length: 103 }, () => makeSession());
        await storage.write({ sessions });
        const first = await storage.listSessions();
        expect(ids(first.sessions)).toEqual(ids(sessions.slice(0, 100)));
        const rest = await storage.listSessions({ cursor: first.cursor });
        expect(ids(rest.sessions)).toEqual(ids(sessions.slice(100)));
      });

      it("continues after a cursor whose session was removed meanwhile", async () => {
        const sessions = Array.from({ length: 5 }, () => makeSession());
        await storage.write({ sessions });
        const first = await storage.listSessions({ limit: 2 });
        await storage.removeSession(first.cursor!);
        const rest = await storage.listSessions({ limit: 10, cursor: first.cursor });
        expect(ids(rest.sessions)).toEqual(ids(sessions.slice(2)));
      });

      it("lists the children of a session by parentID, and only roots with rootsOnly", async () => {
        const a = makeSession();
        const b = makeSession();
        const a1 = makeSession({ parentID: a.id });
        const b1 = makeSession({ parentID: b.id });
        const a2 = makeSession({ parentID: a.id });
        const a1x = makeSession({ parentID: a1.id });
        await storage.write({ sessions: [a2, b1, a1x, a, a1, b] });
        expect(ids((await storage.listSessions({ parentID: a.id })).sessions)).toEqual([a1.id, a2.id]);
        expect(ids((await storage.listSessions({ parentID: a1.id })).sessions)).toEqual([a1x.id]);
        expect(ids((await storage.listSessions({ parentID: a2.id })).sessions)).toEqual([]);
        expect(ids((await storage.listSessions({ rootsOnly: true })).sessions)).toEqual([a.id, b.id]);
        expect(ids((await storage.listSessions({ parentID: b.id, rootsOnly: true })).sessions)).toEqual([b1.id]);
        expect(ids((await storage.listSessions()).sessions)).toEqual([a.id, b.id, a1.id, b1.id, a2.id, a1x.id]);
      });

      it("pages through the children of a session", async () => {
        const parent = makeSession();
        const children = Array.from({ length: 5 }, () => makeSession({ parentID: parent.id }));
        const others = Array.from({ length: 5 }, () => makeSession());
        await storage.write({ sessions: [parent, ...others, ...children] });
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await storage.listSessions({ parentID: parent.id, limit: 2, cursor });
          seen.push(...ids(page.sessions));
          cursor = page.cursor;
          pages++;
        } while (cursor !== undefined && pages < 10);
        expect(seen).toEqual(ids(children));
        expect(pages).toBe(3);
      });
    });

    describe("messages and parts", () => {
      it("returns undefined or an empty list for what does not exist", async () => {
        const { session, message } = await seedSession(1);
        expect(await storage.getMessage(session.id, createId("message"))).toBeUndefined();
        expect(await storage.getMessage(createId("session"), message.id)).toBeUndefined();
        expect(await storage.listMessages(createId("session"))).toEqual([]);
      });

      it("round-trips user and assistant messages with parts of every type, valid against the schemas", async () => {
        const session = makeSession();
        const user = makeUserMessage(session.id, { model: { providerID: "p", modelID: "m" }, system: "be brief" });
        const assistant = makeAssistantMessage(session.id, user.id);
        const userParts = [makeTextPart(session.id, user.id, "do it")];
        const assistantParts = makeEveryPart(session.id, assistant.id);
        await storage.write({ sessions: [session], messages: [user, assistant], parts: [...userParts, ...assistantParts] });

        const one = await storage.getMessage(session.id, assistant.id);
        expect(MessageWithParts.parse(one)).toEqual({ info: assistant, parts: assistantParts });
        expect(one).toEqual({ info: assistant, parts: assistantParts });

        const all = await storage.listMessages(session.id);
        expect(all).toEqual([
          { info: user, parts: userParts },
          { info: assistant, parts: assistantParts },
        ]);
        for (const m of all) expect(MessageWithParts.safeParse(m).success).toBe(true);
      });

      it("lists messages and parts in id order whatever the order they were written in", async () => {
        const session = makeSession();
        const messages = Array.from({ length: 4 }, () => makeUserMessage(session.id));
        const parts = messages.map((m) => Array.from({ length: 5 }, (_, i) => makeTextPart(session.id, m.id, `p${i}`)));
        await storage.write({ sessions: [session], messages: [messages[2]!, messages[0]!] });
        await storage.write({ messages: [messages[3]!, messages[1]!] });
        for (const list of parts) await storage.write({ parts: [...list].reverse().slice(0, 3) });
        for (const list of parts) for (const p of [...list].reverse().slice(3)) await storage.write({ parts: [p] });

        const loaded = await storage.listMessages(session.id);
        expect(loaded.map((m) => m.info.id)).toEqual(ids(messages));
        loaded.forEach((m, i) => expect(ids(m.parts)).toEqual(ids(parts[i]!)));
        const one = await storage.getMessage(session.id, messages[1]!.id);
        expect(ids(one!.parts)).toEqual(ids(parts[1]!));
      });

      it("replaces a message written again, keeping its parts", async () => {
        const session = makeSession();
        const user = makeUserMessage(session.id);
        const assistant = makeAssistantMessage(session.id, user.id);
        const running = { ...assistant, time: { created: 1 }, finish: undefined };
        delete running.finish;
        const part = makeTextPart(session.id, assistant.id);
        await storage.write({ sessions: [session], messages: [user, running], parts: [part] });
        await storage.write({ messages: [assistant] });
        const loaded = await storage.getMessage(session.id, assistant.id);
        expect(loaded).toEqual({ info: assistant, parts: [part] });
        expect((await storage.listMessages(session.id)).map((m) => m.info.id)).toEqual([user.id, assistant.id]);
      });

      it("replaces a part written again with the same id, as a tool call moves through its states", async () => {
        const { session, message } = await seedSession(0);
        const id = createId("part");
        const callID = createId("tool");
        const base = { id, sessionID: session.id, messageID: message.id, type: "tool" as const, callID, tool: "bash" };
        const states: Part[] = [
          { ...base, state: { status: "pending", input: {}, raw: "" } },
          { ...base, state: { status: "running", input: { command: "ls" }, time: { start: 1 } } },
          { ...base, state: { status: "completed", input: { command: "ls" }, output: "x", title: "ls", metadata: {}, time: { start: 1, end: 2 } } },
        ];
        for (const state of states) await storage.write({ parts: [state] });
        const loaded = await storage.getMessage(session.id, message.id);
        expect(loaded?.parts).toEqual([states[2]]);
      });

      it("keeps a part written before its message and shows it once the message is written", async () => {
        const session = makeSession();
        const message = makeUserMessage(session.id);
        const part = makeTextPart(session.id, message.id);
        await storage.write({ sessions: [session], parts: [part] });
        expect(await storage.listMessages(session.id)).toEqual([]);
        expect(await storage.getMessage(session.id, message.id)).toBeUndefined();
        await storage.write({ messages: [message] });
        expect(await storage.listMessages(session.id)).toEqual([{ info: message, parts: [part] }]);
      });

      it("removes a message with its parts, and a single part", async () => {
        const session = makeSession();
        const [m1, m2] = [makeUserMessage(session.id), makeUserMessage(session.id)];
        const p1 = [makeTextPart(session.id, m1.id), makeTextPart(session.id, m1.id)];
        const p2 = [makeTextPart(session.id, m2.id), makeTextPart(session.id, m2.id), makeTextPart(session.id, m2.id)];
        await storage.write({ sessions: [session], messages: [m1, m2], parts: [...p1, ...p2] });

        await storage.write({ removeMessages: [{ sessionID: session.id, messageID: m1.id }] });
        await storage.write({ removeParts: [{ sessionID: session.id, messageID: m2.id, partID: p2[1]!.id }] });
        expect(await storage.getMessage(session.id, m1.id)).toBeUndefined();
        expect(await storage.listMessages(session.id)).toEqual([{ info: m2, parts: [p2[0], p2[2]] }]);

        // The removed message's parts went with it: writing the message again brings none back.
        await storage.write({ messages: [m1] });
        expect(await storage.getMessage(session.id, m1.id)).toEqual({ info: m1, parts: [] });
      });

      it("ignores removals of things that do not exist", async () => {
        const { session, message, parts } = await seedSession(2);
        await storage.write({
          removeMessages: [{ sessionID: session.id, messageID: createId("message") }, { sessionID: createId("session"), messageID: message.id }],
          removeParts: [{ sessionID: session.id, messageID: message.id, partID: createId("part") }],
        });
        expect(await storage.getMessage(session.id, message.id)).toEqual({ info: message, parts });
      });

      it("applies a batch's upserts before its removals", async () => {
        const { session, message, parts } = await seedSession(1);
        const extra = makeTextPart(session.id, message.id, "gone");
        await storage.write({ parts: [extra], removeParts: [{ sessionID: session.id, messageID: message.id, partID: extra.id }] });
        expect((await storage.getMessage(session.id, message.id))?.parts).toEqual(parts);
      });

      it("keeps sessions apart", async () => {
        const a = await seedSession(2);
        const b = await seedSession(3);
        expect((await storage.listMessages(a.session.id)).map((m) => ids(m.parts))).toEqual([ids(a.parts)]);
        expect((await storage.listMessages(b.session.id)).map((m) => ids(m.parts))).toEqual([ids(b.parts)]);
      });

      it("is not changed by mutating what was written or what was read", async () => {
        const { session, message, parts } = await seedSession(1);
        const snapshot = structuredClone({ session, message, parts });
        session.title = "mutated";
        (parts[0] as { text: string }).text = "mutated";
        const read = await storage.getMessage(session.id, message.id);
        // An adapter may hand out copies (the change stays in the copy) or frozen records (the change
        // throws a TypeError); either way the stored record keeps its value.
        attempt(() => ((read!.parts[0] as { text: string }).text = "mutated again"));
        attempt(() => (read!.info.agent = "mutated"));
        const listed = await storage.listMessages(session.id);
        attempt(() => ((listed[0]!.parts[0] as { text: string }).text = "mutated through a list"));
        attempt(() => listed[0]!.parts.push({ ...listed[0]!.parts[0]!, id: "prt_extra" }));
        expect(await storage.getSession(session.id)).toEqual(snapshot.session);
        expect(await storage.getMessage(session.id, message.id)).toEqual({ info: snapshot.message, parts: snapshot.parts });
        expect(await storage.listMessages(session.id)).toEqual([{ info: snapshot.message, parts: snapshot.parts }]);
      });

      it("hands out sessions a caller may change and write back", async () => {
        const { session } = await seedSession(0);
        const read = (await storage.getSession(session.id))!;
        read.title = "renamed";
        await storage.write({ sessions: [read] });
        expect((await storage.getSession(session.id))?.title).toBe("renamed");
      });

      it("stores text of any size and content faithfully", async () => {
        const { session, message } = await seedSession(0);
        const big = "x".repeat(1_000_000);
        const odd = "\u0000 nul, \ud83d\ude00 emoji, \\ backslash, \" quote, \u2028 separator, 'single'";
        const parts = [makeTextPart(session.id, message.id, big), makeTextPart(session.id, message.id, odd)];
        await storage.write({ parts });
        expect((await storage.getMessage(session.id, message.id))?.parts).toEqual(parts);
      });
    });

    describe("batches", () => {
      it("rejects a batch with an invalid record and stores none of it", async () => {
        const before = await seedSession(1);
        const session = makeSession();
        const message = makeUserMessage(session.id);
        const good = makeTextPart(session.id, message.id);
        const bad = { ...makeTextPart(session.id, message.id), type: "no-such-type" } as unknown as Part;
        const error = await storage
          .write({ sessions: [session], messages: [message], parts: [good, bad], removeMessages: [{ sessionID: before.session.id, messageID: before.message.id }] })
          .then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).name).toBe("InvalidBatchError");
        expect(await storage.getSession(session.id)).toBeUndefined();
        expect(await storage.listMessages(session.id)).toEqual([]);
        expect(await storage.listMessages(before.session.id)).toEqual([{ info: before.message, parts: before.parts }]);
      });

      it("rejects records that break the schemas in other ways", async () => {
        const session = makeSession();
        const cases: unknown[] = [
          { sessions: [{ ...session, title: 42 }] },
          { sessions: [{ ...session, id: undefined }] },
          { messages: [{ ...makeUserMessage(session.id), role: "system" }] },
          { parts: [{ ...makeTextPart(session.id, createId("message")), sessionID: undefined }] },
          { removeParts: [{ sessionID: session.id }] },
        ];
        for (const batch of cases) {
          await expect(storage.write(batch as never)).rejects.toMatchObject({ name: "InvalidBatchError" });
        }
        expect(await storage.listSessions()).toEqual({ sessions: [] });
      });

      it("accepts an empty batch", async () => {
        await storage.write({});
        await storage.write({ sessions: [], parts: [] });
        expect(await storage.listSessions()).toEqual({ sessions: [] });
      });

      it("never shows a reader half of a batch", async () => {
        const { session, message } = await seedSession(0);
        const parts = Array.from({ length: 300 }, (_, i) => makeTextPart(session.id, message.id, `p${i}`));
        const observed = new Set<number>();
        let done = false;
        const writing = storage.write({ parts }).finally(() => {
          done = true;
        });
        while (!done) {
          const loaded = await storage.getMessage(session.id, message.id);
          observed.add(loaded?.parts.length ?? -1);
          await sleep(0);
        }
        await writing;
        for (const count of observed) expect([0, 300]).toContain(count);
        expect((await storage.getMessage(session.id, message.id))?.parts).toHaveLength(300);
      });

      it("lands every one of many concurrent writes", async () => {
        const { session, message } = await seedSession(0);
        const parts = Array.from({ length: 40 }, (_, i) => makeTextPart(session.id, message.id, `p${i}`));
        await Promise.all(parts.map((p) => storage.write({ parts: [p] })));
        expect(ids((await storage.getMessage(session.id, message.id))!.parts)).toEqual(sorted(ids(parts)));
      });

      it("stores 2,000 parts written in one batch", async () => {
        const { session, message } = await seedSession(0);
        const parts = Array.from({ length: 2000 }, (_, i) => makeTextPart(session.id, message.id, `part ${i}`));
        await storage.write({ parts });
        const loaded = await storage.listMessages(session.id);
        expect(loaded[0]?.parts).toEqual(parts);
      });
    });

    describe("removeSession", () => {
      it("removes the session with its messages, parts and lease, and nothing else", async () => {
        const parent = await seedSession(2);
        const child = await seedSession(2, { parentID: parent.session.id });
        const other = await seedSession(2);
        expect(await storage.acquireLease(parent.session.id, "owner-a", 60_000)).toBeDefined();
        expect(await storage.acquireLease(other.session.id, "owner-a", 60_000)).toBeDefined();

        await storage.removeSession(parent.session.id);

        expect(await storage.getSession(parent.session.id)).toBeUndefined();
        expect(await storage.listMessages(parent.session.id)).toEqual([]);
        expect(await storage.getMessage(parent.session.id, parent.message.id)).toBeUndefined();
        expect(await storage.acquireLease(parent.session.id, "owner-b", 60_000)).toMatchObject({ owner: "owner-b" });
        // Children are sessions of their own: they stay, still naming their parent.
        expect(await storage.getSession(child.session.id)).toEqual(child.session);
        expect(ids((await storage.listSessions({ parentID: parent.session.id })).sessions)).toEqual([child.session.id]);
        expect(await storage.listMessages(other.session.id)).toEqual([{ info: other.message, parts: other.parts }]);
        expect(await storage.acquireLease(other.session.id, "owner-b", 60_000)).toBeUndefined();
        expect(ids((await storage.listSessions()).sessions)).toEqual([child.session.id, other.session.id]);
      });

      it("leaves nothing behind that a new session with the same id would see", async () => {
        const first = await seedSession(3);
        await storage.removeSession(first.session.id);
        await storage.write({ sessions: [first.session] });
        expect(await storage.listMessages(first.session.id)).toEqual([]);
      });

      it("does nothing for a session that does not exist", async () => {
        const kept = await seedSession(1);
        await storage.removeSession(createId("session"));
        expect(await storage.listMessages(kept.session.id)).toHaveLength(1);
      });
    });

    describe("leases", () => {
      it("grants a free session's lease with an expiry ttl from now", async () => {
        const sessionID = createId("session");
        const before = Date.now();
        const lease = await storage.acquireLease(sessionID, "owner-a", 30_000);
        expect(lease).toMatchObject({ sessionID, owner: "owner-a" });
        // The clock that keeps the lease (a database server's) may differ a little from ours.
        expect(lease!.expiresAt).toBeGreaterThan(before + 30_000 - 2_000);
        expect(lease!.expiresAt).toBeLessThan(Date.now() + 30_000 + 2_000);
      });

      it("names who holds a lease and until when (getLease), and nobody once it is released or expired", async () => {
        if (!storage.getLease) return;
        const sessionID = createId("session");
        expect(await storage.getLease(sessionID)).toBeUndefined();
        const lease = await storage.acquireLease(sessionID, "owner-a", 30_000);
        const held = await storage.getLease(sessionID);
        expect(held).toMatchObject({ sessionID, owner: "owner-a", expiresAt: lease!.expiresAt });
        // This process took it: a lease that records its holder names this host and pid.
        if (held?.pid !== undefined) expect(held).toMatchObject({ pid: process.pid, host: hostname() });
        const renewed = await storage.renewLease(sessionID, "owner-a", 60_000);
        expect((await storage.getLease(sessionID))?.expiresAt).toBe(renewed!.expiresAt);
        await storage.releaseLease(sessionID, "owner-a");
        expect(await storage.getLease(sessionID)).toBeUndefined();
        await storage.acquireLease(sessionID, "owner-b", 100);
        await sleep(250);
        expect(await storage.getLease(sessionID)).toBeUndefined();
      });

      it("keeps other owners out while it is held", async () => {
        const sessionID = createId("session");
        expect(await storage.acquireLease(sessionID, "owner-a", 30_000)).toBeDefined();
        expect(await storage.acquireLease(sessionID, "owner-b", 30_000)).toBeUndefined();
        expect(await storage.renewLease(sessionID, "owner-b", 30_000)).toBeUndefined();
        // A no-op for someone who does not hold it: owner-a keeps it.
        await storage.releaseLease(sessionID, "owner-b");
        expect(await storage.acquireLease(sessionID, "owner-b", 30_000)).toBeUndefined();
      });

      it("lets the holder acquire again, extending the lease", async () => {
        const sessionID = createId("session");
        const first = await storage.acquireLease(sessionID, "owner-a", 1_000);
        const again = await storage.acquireLease(sessionID, "owner-a", 60_000);
        expect(again).toMatchObject({ sessionID, owner: "owner-a" });
        expect(again!.expiresAt).toBeGreaterThan(first!.expiresAt + 50_000);
      });

      it("lets another owner in once the lease expired, and the old holder no longer holds it", async () => {
        const sessionID = createId("session");
        expect(await storage.acquireLease(sessionID, "owner-a", 100)).toBeDefined();
        await sleep(300);
        expect(await storage.acquireLease(sessionID, "owner-b", 30_000)).toMatchObject({ owner: "owner-b" });
        expect(await storage.renewLease(sessionID, "owner-a", 30_000)).toBeUndefined();
        expect(await storage.acquireLease(sessionID, "owner-a", 30_000)).toBeUndefined();
        await storage.releaseLease(sessionID, "owner-a");
        expect(await storage.acquireLease(sessionID, "owner-a", 30_000)).toBeUndefined();
      });

      it("renews a held lease so it outlives its first expiry", async () => {
        const sessionID = createId("session");
        const first = await storage.acquireLease(sessionID, "owner-a", 200);
        const renewed = await storage.renewLease(sessionID, "owner-a", 30_000);
        expect(renewed).toMatchObject({ sessionID, owner: "owner-a" });
        expect(renewed!.expiresAt).toBeGreaterThan(first!.expiresAt + 20_000);
        await sleep(400);
        expect(await storage.acquireLease(sessionID, "owner-b", 30_000)).toBeUndefined();
      });

      it("does not renew a lease nobody holds", async () => {
        expect(await storage.renewLease(createId("session"), "owner-a", 30_000)).toBeUndefined();
      });

      it("lets another owner in after release", async () => {
        const sessionID = createId("session");
        await storage.acquireLease(sessionID, "owner-a", 30_000);
        await storage.releaseLease(sessionID, "owner-a");
        expect(await storage.renewLease(sessionID, "owner-a", 30_000)).toBeUndefined();
        expect(await storage.acquireLease(sessionID, "owner-b", 30_000)).toMatchObject({ owner: "owner-b" });
        await storage.releaseLease(createId("session"), "owner-a");
      });

      it("keeps each session's lease apart", async () => {
        const [s1, s2] = [createId("session"), createId("session")];
        expect(await storage.acquireLease(s1, "owner-a", 30_000)).toBeDefined();
        expect(await storage.acquireLease(s2, "owner-b", 30_000)).toBeDefined();
        expect(await storage.acquireLease(s1, "owner-b", 30_000)).toBeUndefined();
        expect(await storage.acquireLease(s2, "owner-a", 30_000)).toBeUndefined();
      });

      it("grants the lease to exactly one of many owners asking at once", async () => {
        const sessionID = createId("session");
        const owners = Array.from({ length: 8 }, (_, i) => `owner-${i}`);
        const results = await Promise.all(owners.map((o) => storage.acquireLease(sessionID, o, 30_000)));
        const winners = results.filter((r) => r !== undefined);
        expect(winners).toHaveLength(1);
        const winner = winners[0]!.owner;
        for (const o of owners) {
          const lease = await storage.acquireLease(sessionID, o, 30_000);
          expect(lease?.owner).toBe(o === winner ? winner : undefined);
        }
      });
    });

    describe("schema version", () => {
      it("reports a positive whole schema version when it stores one", async () => {
        if (!storage.schemaVersion) {
          expect(options.reopen, "an adapter that can be reopened persists data and must report its schema version").toBeUndefined();
          return;
        }
        const version = await storage.schemaVersion();
        expect(Number.isInteger(version)).toBe(true);
        expect(version).toBeGreaterThan(0);
      });
    });

    if (options.corrupt) describeCorruption(() => ({ storage, reported }), options.corrupt);

    const reopen = options.reopen;
    if (reopen) {
      describe("persistence", () => {
        const reopened = async (): Promise<Storage> => {
          await storage.close();
          const next = await reopen(storage);
          opened.push(next);
          return next;
        };

        it("keeps sessions, messages, parts and leases when closed and opened again", async () => {
          const parent = makeSession();
          const rich = makeRichSession(parent.id);
          const user = makeUserMessage(rich.id);
          const assistant = makeAssistantMessage(rich.id, user.id);
          const parts = [makeTextPart(rich.id, user.id), ...makeEveryPart(rich.id, assistant.id)];
          await storage.write({ sessions: [parent, rich], messages: [user, assistant], parts });
          await storage.acquireLease(rich.id, "owner-a", 60_000);

          const again = await reopened();
          expect(await again.getSession(rich.id)).toEqual(rich);
          expect(ids((await again.listSessions({ parentID: parent.id })).sessions)).toEqual([rich.id]);
          const messages = await again.listMessages(rich.id);
          expect(messages.map((m) => Message.parse(m.info))).toEqual([user, assistant]);
          expect(messages.flatMap((m) => m.parts)).toEqual(parts);
          expect(await again.acquireLease(rich.id, "owner-b", 60_000)).toBeUndefined();
          expect(await again.acquireLease(rich.id, "owner-a", 60_000)).toBeDefined();
        });

        it("keeps its schema version across reopening, migrating nothing twice", async () => {
          const version = await storage.schemaVersion!();
          const { session } = await seedSession(2);
          let current = await reopened();
          expect(await current.schemaVersion!()).toBe(version);
          storage = current;
          current = await reopened();
          expect(await current.schemaVersion!()).toBe(version);
          expect((await current.listMessages(session.id))[0]?.parts).toHaveLength(2);
          await current.write({ sessions: [makeSession()] });
          expect((await current.listSessions()).sessions).toHaveLength(2);
        });
      });
    }
  });
}

export { DAMAGE, type CorruptRecord, type StoredRecordRef } from "./conformance-corruption.js";
export { spawnLeaseProcess, type LeaseProcess, type StorageProcessSpec } from "./lease-process.js";
export { raceForLeases, killedHolderIsTakenOver } from "./lease-race.js";
export { makeSession, makeUserMessage, makeTextPart } from "./conformance-fixtures.js";

/** Runs a mutation of a record read from storage: one that throws because the record is frozen is as good as one that changed a copy. */
function attempt(mutate: () => unknown): void {
  try {
    mutate();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}
