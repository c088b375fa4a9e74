import type { Message, MessageWithParts, Part, Session } from "@lathe/message";

/** Writes applied together: an adapter stores all of a batch or none of it (one transaction, where it has them). */
export interface WriteBatch {
  /** Sessions to insert or replace. */
  sessions?: Session[];
  /** Messages to insert or replace. */
  messages?: Message[];
  /** Parts to insert or replace (each names its session and message). */
  parts?: Part[];
  /** Messages to remove, with their parts. */
  removeMessages?: Array<{ sessionID: string; messageID: string }>;
  /** Parts to remove. */
  removeParts?: Array<{ sessionID: string; messageID: string; partID: string }>;
}

/** Which sessions {@link Storage.listSessions} returns. */
export interface SessionQuery {
  /** Only the children of this session (subagent sessions and forks). */
  parentID?: string;
  /** Only top-level sessions (those without a parent). Ignored when `parentID` is given. */
  rootsOnly?: boolean;
  /** Continue after this cursor, as returned in {@link SessionPage.cursor}. */
  cursor?: string;
  /** Page size; default 100. */
  limit?: number;
}

/** One page of sessions, in id order (oldest first). */
export interface SessionPage {
  sessions: Session[];
  /** Pass as {@link SessionQuery.cursor} for the next page; absent on the last page. */
  cursor?: string;
}

/** A session lease: while held and unexpired, no other owner can acquire the session. */
export interface Lease {
  sessionID: string;
  /** Who holds it: unique per process and agent. */
  owner: string;
  /** When it lapses unless renewed (ms since epoch). */
  expiresAt: number;
}

/**
 * Where Lathe keeps sessions, messages and parts. Everything the agent knows is here, so a session
 * resumes, forks and reverts from storage alone.
 *
 * Lists are in id order, which is creation order (ids are ascending). All methods are async so an
 * adapter may live in another process. The conformance suite in `@lathe/storage/conformance` checks
 * an adapter against this contract.
 */
export interface Storage {
  /** Applies a batch of writes atomically. */
  write(batch: WriteBatch): Promise<void>;
  /** A session, or undefined when there is none with that id. */
  getSession(sessionID: string): Promise<Session | undefined>;
  /** Sessions in id order, a page at a time. */
  listSessions(query?: SessionQuery): Promise<SessionPage>;
  /** Removes a session with all its messages, parts and its lease. Removing a missing session is not an error. */
  removeSession(sessionID: string): Promise<void>;
  /** One message with its parts. */
  getMessage(sessionID: string, messageID: string): Promise<MessageWithParts | undefined>;
  /** All messages of a session with their parts, messages and parts each in id order. */
  listMessages(sessionID: string): Promise<MessageWithParts[]>;
  /**
   * Takes the session's lease for `owner` if it is free, expired, or already held by `owner`
   * (then it is renewed). Returns the lease, or undefined when another owner holds it.
   */
  acquireLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined>;
  /** Extends a lease `owner` holds. Returns undefined when `owner` no longer holds it. */
  renewLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined>;
  /** Gives a lease back. Releasing a lease one does not hold is a no-op. */
  releaseLease(sessionID: string, owner: string): Promise<void>;
  /** Releases resources (connections, file handles). */
  close(): Promise<void>;
}
