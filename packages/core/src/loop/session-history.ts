import { ModelMessageCache, Session as SessionSchema, type MessageWithParts, type Part, type Session } from "@lathe/message";
import type { Storage, WriteBatch } from "@lathe/storage";
import { PromptPrefix } from "./prompt-prefix.js";
import type { WriteObserver } from "../session/observed-storage.js";

/**
 * A session's history as this agent last loaded it, kept from turn to turn with what its
 * conversions for the model made of it: a turn then reads nothing from storage and converts only
 * what is new, instead of reading and converting the whole session again.
 */
interface LoadedHistory {
  /** The messages in id order (the objects the last turn saw and wrote, shared with it). */
  messages: MessageWithParts[];
  /** The session record as this agent last wrote or read it, in a canonical form; see {@link stamp}. */
  stamp: string;
  /** Batches this agent wrote since, applied on the next load (the turn writing them is not disturbed). */
  pending: WriteBatch[];
  /** Messages a turn finished, as the turn holds them (see {@link SessionHistories.adopt}). */
  adopted: MessageWithParts[];
  /** The model messages of its steps, so a turn converts only the new ones. */
  messageCache: ModelMessageCache;
  /** The provider-level prompt of the last request, so the next turn's first request converts only what is new. */
  promptPrefix: PromptPrefix;
}

/** What a turn works with: the history, and the conversions kept with it. */
export interface TurnHistory {
  /** The session's messages in id order; a fresh array (the message objects are shared with the cache). */
  messages: MessageWithParts[];
  messageCache: ModelMessageCache;
  promptPrefix: PromptPrefix;
}

/**
 * The histories of the sessions this agent runs, kept across turns.
 *
 * A loaded history stays valid while this agent is the only writer of its session: every batch the
 * agent writes (through {@link ObservedStorage}) is applied to it, and a write by anyone else — another
 * process, or another agent on the same storage — shows as a session record different from the one
 * this agent last wrote, because every turn stamps the session record before it writes anything
 * ({@link SessionHistories.touch}) and every finished message updates it. A leased session is not
 * written by anyone else while a turn holds it; between turns, comparing the record is what tells.
 * A mismatch, a failed write, a removed session or a batch the cache cannot place (a part before its
 * message) drops the history; the next turn reads the session again.
 *
 * Reverts, forks and compactions need nothing of their own: a revert's removal and a compaction's
 * rewritten parts are batches like any other (removals and replaced parts also reset the model
 * message cache), and a fork is a new session.
 */
export class SessionHistories implements WriteObserver {
  private readonly loaded = new Map<string, LoadedHistory>();

  constructor(private readonly storage: () => Storage) {}

  /**
   * The history of `session` (the record just read from storage) for a new turn: the loaded one with
   * this agent's writes since applied, or — when it is missing or someone else wrote the session —
   * read from storage.
   */
  async load(session: Session): Promise<TurnHistory> {
    let entry = this.loaded.get(session.id);
    if (entry && entry.stamp !== stamp(session)) {
      this.loaded.delete(session.id);
      entry = undefined;
    }
    if (entry && !(applyPending(entry) && adoptFinished(entry))) {
      this.loaded.delete(session.id);
      entry = undefined;
    }
    if (!entry) {
      const messages = thaw(await this.storage().listMessages(session.id));
      entry = { messages, stamp: stamp(session), pending: [], adopted: [], messageCache: new ModelMessageCache(), promptPrefix: new PromptPrefix() };
      this.loaded.set(session.id, entry);
    }
    return { messages: entry.messages.slice(), messageCache: entry.messageCache, promptPrefix: entry.promptPrefix };
  }

  /**
   * The conversions kept with a session's loaded history, for its turn's requests; fresh ones (kept
   * for nothing) when the session has none loaded.
   */
  conversions(sessionID: string): { messageCache: ModelMessageCache; promptPrefix: PromptPrefix } {
    const entry = this.loaded.get(sessionID);
    return entry ? { messageCache: entry.messageCache, promptPrefix: entry.promptPrefix } : { messageCache: new ModelMessageCache(), promptPrefix: new PromptPrefix() };
  }

  /**
   * Hands over a message a turn just finished, as the turn holds it. The writer stores copies of
   * parts (the loop goes on changing its own), so the history rebuilt from the batches holds equal
   * but other objects, and the model message cache — which knows the turn's own objects — would
   * convert the message again; with the turn's parts in the history it finds them.
   */
  adopt(sessionID: string, message: MessageWithParts): void {
    this.loaded.get(sessionID)?.adopted.push(message);
  }

  /** Drops a session's loaded history (a turn that failed may have left it unlike what is stored). */
  forget(sessionID: string): void {
    this.loaded.delete(sessionID);
  }

  written(batch: WriteBatch): void {
    for (const sessionID of sessionsOf(batch)) this.loaded.get(sessionID)?.pending.push(batch);
    for (const session of batch.sessions ?? []) {
      const entry = this.loaded.get(session.id);
      // As storage keeps it: parsed by the schema (defaults filled in, unknown keys dropped), as it reads back.
      if (entry) entry.stamp = stamp(SessionSchema.parse(session));
    }
  }

  failed(batch: WriteBatch): void {
    for (const sessionID of sessionsOf(batch)) this.loaded.delete(sessionID);
  }

  removed(sessionID: string): void {
    this.loaded.delete(sessionID);
  }

  /**
   * A record read before this agent writes the session (its read-modify-writes read it first) tells
   * of a write by anyone else since this agent's last: the loaded history is dropped then, before the
   * agent's own write would make the record its own again and hide the other's messages.
   */
  read(session: Session): void {
    const entry = this.loaded.get(session.id);
    if (entry && entry.stamp !== stamp(session)) this.loaded.delete(session.id);
  }
}

/**
 * The session record in a canonical form (keys sorted), so that a record read back from any adapter
 * compares equal to the one written — and one written by anyone else does not.
 */
function stamp(session: Session): string {
  return JSON.stringify(session, (_key, value: unknown) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

function sessionsOf(batch: WriteBatch): Set<string> {
  const ids = new Set<string>();
  for (const record of [...(batch.messages ?? []), ...(batch.parts ?? []), ...(batch.removeMessages ?? []), ...(batch.removeParts ?? [])]) {
    ids.add(record.sessionID);
  }
  for (const session of batch.sessions ?? []) ids.add(session.id);
  return ids;
}

/**
 * Messages and parts that may be changed: an adapter that hands out frozen records (memory storage
 * shares its own) gets them copied; others' are returned as they are (already copies).
 */
export function thaw(messages: MessageWithParts[]): MessageWithParts[] {
  const frozen = messages.some((m) => Object.isFrozen(m.info) || m.parts.some((p) => Object.isFrozen(p)));
  return frozen ? structuredClone(messages) : messages;
}

/**
 * Applies the batches written since the last load, in order; false when one cannot be placed (the
 * history is then read again). Upserts before removals, as storage applies them.
 */
function applyPending(entry: LoadedHistory): boolean {
  const batches = entry.pending;
  entry.pending = [];
  if (batches.length === 0) return true;
  const index = new Map(entry.messages.map((m, i) => [m.info.id, i]));
  let reorder = false;
  for (const batch of batches) {
    for (const info of batch.messages ?? []) {
      const at = index.get(info.id);
      if (at !== undefined) {
        const current = entry.messages[at]!;
        if (current.info !== info) entry.messages[at] = { info, parts: current.parts };
        continue;
      }
      const last = entry.messages.at(-1);
      if (last && last.info.id > info.id) reorder = true;
      index.set(info.id, entry.messages.length);
      entry.messages.push({ info, parts: [] });
    }
    for (const part of batch.parts ?? []) {
      const at = index.get(part.messageID);
      // A part stored before its message: storage keeps it for the message to come; read it all again.
      if (at === undefined) return false;
      upsertPart(entry, entry.messages[at]!, part);
    }
    const removedMessages = new Set((batch.removeMessages ?? []).map((k) => k.messageID));
    const removedParts = new Set((batch.removeParts ?? []).map((k) => k.partID));
    if (removedMessages.size > 0 || removedParts.size > 0) {
      entry.messages = entry.messages
        .filter((m) => !removedMessages.has(m.info.id))
        .map((m) => (m.parts.some((p) => removedParts.has(p.id)) ? { info: m.info, parts: m.parts.filter((p) => !removedParts.has(p.id)) } : m));
      index.clear();
      entry.messages.forEach((m, i) => index.set(m.info.id, i));
      // The cache reuses a step by its first part and count: with parts gone it could be wrong.
      entry.messageCache.clear();
    }
  }
  if (reorder) entry.messages.sort((a, b) => (a.info.id < b.info.id ? -1 : a.info.id > b.info.id ? 1 : 0));
  return true;
}

/**
 * Puts the messages turns finished in place of the copies the batches brought, where they have the
 * same parts (by id, in order) — they were written last as they are. Always true.
 */
function adoptFinished(entry: LoadedHistory): boolean {
  const adopted = entry.adopted;
  entry.adopted = [];
  for (const live of adopted) {
    const at = entry.messages.findLastIndex((m) => m.info.id === live.info.id);
    if (at < 0) continue;
    const stored = entry.messages[at]!;
    if (stored.parts.length === live.parts.length && stored.parts.every((p, i) => p.id === live.parts[i]!.id)) {
      entry.messages[at] = { info: stored.info, parts: live.parts };
    }
  }
  return true;
}

/**
 * Puts `part` into its message: nothing to do when it is there already (the loop wrote the object it
 * holds), appended when new and last, else put in id order. A replaced object (compaction clearing a
 * tool output writes a copy) is reported to the model message cache.
 */
function upsertPart(entry: LoadedHistory, message: MessageWithParts, part: Part): void {
  const parts = message.parts;
  for (let i = parts.length - 1; i >= 0; i--) {
    const current = parts[i]!;
    if (current.id !== part.id) continue;
    if (current !== part) {
      entry.messageCache.changed(current);
      parts[i] = part;
    }
    return;
  }
  if (parts.length === 0 || parts[parts.length - 1]!.id < part.id) {
    parts.push(part);
    return;
  }
  // A part that sorts before others already there: the cache's step layout of this array no longer holds.
  parts.push(part);
  parts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  entry.messageCache.clear();
}
