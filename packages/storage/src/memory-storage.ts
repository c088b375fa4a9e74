import type { Message, MessageWithParts, Part, Session } from "@lathe/message";
import { thisProcess } from "./process-alive.js";
import { matchesQuery, pageLimit } from "./session-query.js";
import type { Lease, SessionPage, SessionQuery, Storage } from "./storage.js";
import { validateBatch, type WriteBatch } from "./write-batch.js";

interface StoredMessage {
  /** Undefined while only parts of the message have been written. */
  info: Message | undefined;
  parts: Map<string, Part>;
}

// Values are copied on the way in (validation parses into fresh objects), so a caller's later
// mutations never reach what is stored. Messages and parts are then frozen, deeply, and handed out as
// they are — reading a long session costs no copy, and a caller cannot change what is stored through
// what it read (an attempt throws a TypeError) — the same isolation a real database gives. Sessions,
// which callers read to change and write back, are small and handed out as copies.
const clone = <T>(value: T): T => structuredClone(value);

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The map's values in key order. Ids are ascending, so the map is almost always in order already: only checked then. */
function byKey<T>(map: Map<string, T>): T[] {
  const entries = [...map.entries()];
  for (let i = 1; i < entries.length; i++) {
    if (entries[i - 1]![0] > entries[i]![0]) {
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      break;
    }
  }
  return entries.map(([, v]) => v);
}

/** Keeps everything in memory: the default storage, lost when the process ends. */
export class MemoryStorage implements Storage {
  private readonly sessions = new Map<string, Session>();
  private readonly messages = new Map<string, Map<string, StoredMessage>>();
  private readonly leases = new Map<string, Lease>();

  async write(input: WriteBatch): Promise<void> {
    const batch = validateBatch(input);
    for (const session of batch.sessions) this.sessions.set(session.id, session);
    for (const message of batch.messages) this.message(message.sessionID, message.id).info = deepFreeze(message);
    // A part written before its message stays reachable once the message arrives.
    for (const part of batch.parts) this.message(part.sessionID, part.messageID).parts.set(part.id, deepFreeze(part));
    for (const { sessionID, messageID } of batch.removeMessages) this.messages.get(sessionID)?.delete(messageID);
    for (const { sessionID, messageID, partID } of batch.removeParts) {
      this.messages.get(sessionID)?.get(messageID)?.parts.delete(partID);
    }
  }

  async getSession(sessionID: string): Promise<Session | undefined> {
    const session = this.sessions.get(sessionID);
    return session ? clone(session) : undefined;
  }

  async listSessions(query: SessionQuery = {}): Promise<SessionPage> {
    const limit = pageLimit(query);
    const after = query.cursor;
    const matching = byKey(this.sessions).filter((s) => matchesQuery(s, query) && (after === undefined || s.id > after));
    const page = matching.slice(0, limit).map(clone);
    const last = page[page.length - 1];
    return matching.length > limit && last ? { sessions: page, cursor: last.id } : { sessions: page };
  }

  async removeSession(sessionID: string): Promise<void> {
    this.sessions.delete(sessionID);
    this.messages.delete(sessionID);
    this.leases.delete(sessionID);
  }

  async getMessage(sessionID: string, messageID: string): Promise<MessageWithParts | undefined> {
    const message = this.messages.get(sessionID)?.get(messageID);
    return message?.info ? { info: message.info, parts: byKey(message.parts) } : undefined;
  }

  async listMessages(sessionID: string): Promise<MessageWithParts[]> {
    const list = this.messages.get(sessionID);
    if (!list) return [];
    const result: MessageWithParts[] = [];
    for (const { info, parts } of byKey(list)) if (info) result.push({ info, parts: byKey(parts) });
    return result;
  }

  async acquireLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const now = Date.now();
    const held = this.leases.get(sessionID);
    if (held && held.owner !== owner && held.expiresAt > now) return undefined;
    // Every holder is this process, alive: only expiry or release frees a lease here.
    const lease = { sessionID, owner, expiresAt: now + ttlMs, ...thisProcess() };
    this.leases.set(sessionID, lease);
    return { ...lease };
  }

  async getLease(sessionID: string): Promise<Lease | undefined> {
    const held = this.leases.get(sessionID);
    return held && held.expiresAt > Date.now() ? { ...held } : undefined;
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

  private message(sessionID: string, messageID: string): StoredMessage {
    let list = this.messages.get(sessionID);
    if (!list) {
      list = new Map();
      this.messages.set(sessionID, list);
    }
    let message = list.get(messageID);
    if (!message) {
      message = { info: undefined, parts: new Map() };
      list.set(messageID, message);
    }
    return message;
  }
}
