import { MessageWithParts, Session, createId } from "@lathe/message";
import { describe, expect, it } from "vitest";
import { makeSession, makeTextPart, makeUserMessage } from "./conformance-fixtures.js";
import { CorruptRecordError } from "./errors.js";
import type { Storage } from "./storage.js";

/** A stored record, by its key: what the suite asks an adapter to damage. */
export type StoredRecordRef =
  | { kind: "session"; sessionID: string }
  | { kind: "message"; sessionID: string; messageID: string }
  | { kind: "part"; sessionID: string; messageID: string; partID: string };

/**
 * Replaces the stored text of one record with `text`, bypassing the adapter's checks (as a disk
 * fault, a bad migration or a hand edit would): for SQLite and PostgreSQL an `UPDATE` of the row's
 * data, for files a write of the record's file.
 */
export type CorruptRecord = (storage: Storage, record: StoredRecordRef, text: string) => Promise<void>;

/** The kinds of damage every adapter must contain, each as the text a record is replaced with. */
export const DAMAGE: ReadonlyArray<readonly [name: string, text: (valid: string) => string]> = [
  ["truncated JSON", (valid) => valid.slice(0, Math.floor(valid.length / 2))],
  ["bytes that are no JSON", () => "\u0001\u00ff\ufffd garbage \u0002"],
  ["an empty record", () => ""],
  ["JSON null", () => "null"],
  ["a JSON array", () => "[1,2]"],
  ["a JSON number", () => "42"],
  ["an object without ids", () => '{"hello":"world"}'],
  ["another record's JSON", (valid) => valid.replace(/"id":"([a-z]+)_/, '"id":"$1_other')],
];

/**
 * The corruption tests of the conformance suite: one damaged record is reported as a
 * {@link CorruptRecordError} naming it, lists go on without it, and it is never rewritten.
 */
export function describeCorruption(
  get: () => { storage: Storage; reported: CorruptRecordError[] },
  corrupt: CorruptRecord,
): void {
  /** Three sessions, the middle one with two messages of three parts each. */
  async function seed() {
    const { storage } = get();
    const sessions = [makeSession(), makeSession(), makeSession()];
    const [, session] = sessions as [Session, Session, Session];
    const messages = [makeUserMessage(session.id), makeUserMessage(session.id)];
    const parts = messages.flatMap((m) => [0, 1, 2].map((i) => makeTextPart(session.id, m.id, `${m.id} part ${i}`)));
    await storage.write({ sessions, messages, parts });
    return { sessions, session, messages, parts };
  }

  const expectReported = (reported: CorruptRecordError[], id: string) => {
    expect(reported.length).toBeGreaterThan(0);
    for (const error of reported) {
      expect(error).toBeInstanceOf(CorruptRecordError);
      expect(error.location).toContain(id);
    }
  };

  describe("damaged records", () => {
    describe.each(DAMAGE)("a record replaced by %s", (_, damage) => {
      it("a damaged session: listed around, paged past, reported; reading it throws CorruptRecordError", async () => {
        const { storage, reported } = get();
        const { sessions, session } = await seed();
        await corrupt(storage, { kind: "session", sessionID: session.id }, damage(JSON.stringify(session)));
        const intact = sessions.filter((s) => s !== session);

        expect((await storage.listSessions()).sessions).toEqual(intact);
        expectReported(reported, session.id);
        const first = await storage.listSessions({ limit: 1 });
        const second = await storage.listSessions({ limit: 1, cursor: first.cursor });
        const third = second.cursor ? await storage.listSessions({ limit: 1, cursor: second.cursor }) : { sessions: [] };
        expect([...first.sessions, ...second.sessions, ...third.sessions]).toEqual(intact);

        const error = await storage.getSession(session.id).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(CorruptRecordError);
        expect((error as CorruptRecordError).location).toContain(session.id);
        expect(await storage.getSession(intact[0]!.id)).toEqual(intact[0]);
        // Its messages are still there to read.
        expect(await storage.listMessages(session.id)).toHaveLength(2);
      });

      it("a damaged message: the session loads without it, reported; reading it throws CorruptRecordError", async () => {
        const { storage, reported } = get();
        const { session, messages, parts } = await seed();
        const [bad, good] = messages as [MessageWithParts["info"], MessageWithParts["info"]];
        await corrupt(storage, { kind: "message", sessionID: session.id, messageID: bad.id }, damage(JSON.stringify(bad)));

        const loaded = await storage.listMessages(session.id);
        expect(loaded).toEqual([{ info: good, parts: parts.filter((p) => p.messageID === good.id) }]);
        expectReported(reported, bad.id);
        await expect(storage.getMessage(session.id, bad.id)).rejects.toBeInstanceOf(CorruptRecordError);
        expect(await storage.getMessage(session.id, good.id)).toEqual(loaded[0]);
      });

      it("a damaged part: its message loads with the other parts, reported", async () => {
        const { storage, reported } = get();
        const { session, messages, parts } = await seed();
        const bad = parts[1]!;
        await corrupt(storage, { kind: "part", sessionID: session.id, messageID: bad.messageID, partID: bad.id }, damage(JSON.stringify(bad)));

        const loaded = await storage.listMessages(session.id);
        expect(loaded.map((m) => m.info)).toEqual(messages);
        expect(loaded.flatMap((m) => m.parts)).toEqual(parts.filter((p) => p !== bad));
        expectReported(reported, bad.id);
        reported.length = 0;
        const message = await storage.getMessage(session.id, bad.messageID);
        expect(message?.parts).toEqual(parts.filter((p) => p.messageID === bad.messageID && p !== bad));
        expectReported(reported, bad.id);
      });

      it("never rewrites a damaged record: it is reported again after reads and other writes", async () => {
        const { storage, reported } = get();
        const { session, messages, parts } = await seed();
        const bad = parts[4]!;
        await corrupt(storage, { kind: "part", sessionID: session.id, messageID: bad.messageID, partID: bad.id }, damage(JSON.stringify(bad)));
        await storage.listMessages(session.id);
        const added = makeTextPart(session.id, messages[0]!.id, "written after the damage");
        await storage.write({ sessions: [{ ...session, title: "touched" }], parts: [added] });
        reported.length = 0;
        const loaded = await storage.listMessages(session.id);
        expect(loaded.flatMap((m) => m.parts)).toHaveLength(parts.length);
        expectReported(reported, bad.id);
        // Writing the record again (the owner's own repair) replaces the damage.
        await storage.write({ parts: [bad] });
        reported.length = 0;
        expect((await storage.listMessages(session.id)).flatMap((m) => m.parts)).toHaveLength(parts.length + 1);
        expect(reported).toEqual([]);
      });
    });

    it("reports nothing for intact records", async () => {
      const { storage, reported } = get();
      const { session } = await seed();
      await storage.listSessions();
      await storage.listMessages(session.id);
      await storage.getMessage(session.id, createId("message"));
      expect(reported).toEqual([]);
    });
  });
}
