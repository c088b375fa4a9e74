import type { Message, MessageWithParts, Part, Session } from "@lathe/message";
import type { Lease, SessionPage, SessionQuery, Storage, WriteBatch } from "./storage.js";

interface StoredMessage {
  info: Message;
  parts: Map<string, Part>;
}

// Values are cloned on the way in and out, so callers can never mutate what is stored — the same
// isolation a real database gives, which keeps tests honest.
const clone = <T>(value: T): T => structuredClone(value);

const byKey = <T>(map: Map<string, T>): T[] =>
  [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);

/** Keeps everything in memory: the default storage, lost when the process ends. */
export class MemoryStorage implements Storage {
  private readonly sessions = new Map<string, Session>();
  private readonly messages = new Map<string, Map<string, StoredMessage>>();
  private readonly leases = new Map<string, Lease>();

  async write(batch: WriteBatch): Promise<void> {
    for (const session of batch.sessions ?? []) this.sessions.set(session.id, clone(session));
    for (const message of batch.messages ?? []) {
      const list = this.sessionMessages(message.sessionID);
      const existing = list.get(message.id);
      if (existing) existing.info = clone(message);
      else list.set(message.id, { info: clone(message), parts: new Map() });
    }
    for (const part of batch.parts ?? []) {
      const list = this.sessionMessages(part.sessionID);
      let message = list.get(part.messageID);
      if (!message) {
        // A part may be written before its message in the same or an earlier batch only by a buggy
        // caller; keep it reachable anyway rather than lose data.
        message = { info: undefined as unknown as Message, parts: new Map() };
        list.set(part.messageID, message);
      }
      message.parts.set(part.id, clone(part));
    }
    for (const { sessionID, messageID } of batch.removeMessages ?? []) this.messages.get(sessionID)?.delete(messageID);
    for (const { sessionID, messageID, partID } of batch.removeParts ?? []) {
      this.messages.get(sessionID)?.get(messageID)?.parts.delete(partID);
    }
  }

  async getSession(sessionID: string): Promise<Session | undefined> {
    const session = this.sessions.get(sessionID);
    return session ? clone(session) : undefined;
  }

  async listSessions(query: SessionQuery = {}): Promise<SessionPage> {
    const limit = query.limit ?? 100;
    const all = byKey(this.sessions).filter((s) =>
      query.parentID !== undefined ? s.parentID === query.parentID : query.rootsOnly ? s.parentID === undefined : true,
    );
    const start = query.cursor === undefined ? all : all.filter((s) => s.id > query.cursor!);
    const page = start.slice(0, limit).map(clone);
    const last = page[page.length - 1];
    return start.length > limit && last ? { sessions: page, cursor: last.id } : { sessions: page };
  }

  async removeSession(sessionID: string): Promise<void> {
    this.sessions.delete(sessionID);
    this.messages.delete(sessionID);
    this.leases.delete(sessionID);
  }

  async getMessage(sessionID: string, messageID: string): Promise<MessageWithParts | undefined> {
    const message = this.messages.get(sessionID)?.get(messageID);
    return message?.info ? { info: clone(message.info), parts: byKey(message.parts).map(clone) } : undefined;
  }

  async listMessages(sessionID: string): Promise<MessageWithParts[]> {
    const list = this.messages.get(sessionID);
    if (!list) return [];
    return byKey(list)
      .filter((m) => m.info !== undefined)
      .map((m) => ({ info: clone(m.info), parts: byKey(m.parts).map(clone) }));
  }

  async acquireLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const now = Date.now();
    const held = this.leases.get(sessionID);
    if (held && held.owner !== owner && held.expiresAt > now) return undefined;
    const lease = { sessionID, owner, expiresAt: now + ttlMs };
    this.leases.set(sessionID, lease);
    return { ...lease };
  }

  async renewLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const held = this.leases.get(sessionID);
    if (!held || held.owner !== owner) return undefined;
    held.expiresAt = Date.now() + ttlMs;
    return { ...held };
  }

  async releaseLease(sessionID: string, owner: string): Promise<void> {
    if (this.leases.get(sessionID)?.owner === owner) this.leases.delete(sessionID);
  }

  async close(): Promise<void> {}

  private sessionMessages(sessionID: string): Map<string, StoredMessage> {
    let list = this.messages.get(sessionID);
    if (!list) {
      list = new Map();
      this.messages.set(sessionID, list);
    }
    return list;
  }
}
