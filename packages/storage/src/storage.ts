import type { MessageWithParts, Session } from "@lathe/message";
import type { WriteBatch } from "./write-batch.js";

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

/**
 * A session lease: while held and unexpired, no other owner can acquire the session — unless its
 * holder is a process on the same host that is gone (killed, crashed), which is taken over at once.
 */
export interface Lease {
  sessionID: string;
  /** Who holds it: unique per process and agent. */
  owner: string;
  /** When it lapses unless renewed (ms since epoch, by the clock of whatever keeps the lease). */
  expiresAt: number;
  /** The host the holding process runs on (`os.hostname()`), when the adapter records it. */
  host?: string;
  /** The holding process's id, when the adapter records it. */
  pid?: number;
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
  /**
   * Applies a batch of writes atomically: upserts (sessions, then messages, then parts) before
   * removals. Every record is validated first (`validateBatch`); an invalid batch rejects
   * with `InvalidBatchError` and stores nothing.
   */
  write(batch: WriteBatch): Promise<void>;
  /** A session, or undefined when there is none with that id. */
  getSession(sessionID: string): Promise<Session | undefined>;
  /** Sessions in id order, a page at a time. */
  listSessions(query?: SessionQuery): Promise<SessionPage>;
  /**
   * Removes a session with all it owns: its messages, their parts, and its lease. Child sessions
   * (subagent sessions, forks) are sessions of their own and stay; list them with `parentID` to
   * remove them too. Removing a missing session is not an error.
   */
  removeSession(sessionID: string): Promise<void>;
  /** One message with its parts (in id order), or undefined when there is none. */
  getMessage(sessionID: string, messageID: string): Promise<MessageWithParts | undefined>;
  /** All messages of a session with their parts, messages and parts each in id order. */
  listMessages(sessionID: string): Promise<MessageWithParts[]>;
  /**
   * Takes the session's lease for `owner` if it is free, expired, already held by `owner` (then it
   * is renewed), or held by a process on this host that no longer runs. Records the calling
   * process's host and pid with it. Returns the lease, or undefined when another owner holds it.
   */
  acquireLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined>;
  /**
   * Who holds the session's lease and until when; undefined when nobody holds an unexpired one.
   * Optional (Lathe's adapters all have it): it names the holder in `SessionBusyError`.
   */
  getLease?(sessionID: string): Promise<Lease | undefined>;
  /** Extends a lease `owner` holds. Returns undefined when `owner` no longer holds it. */
  renewLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined>;
  /** Gives a lease back. Releasing a lease one does not hold is a no-op. */
  releaseLease(sessionID: string, owner: string): Promise<void>;
  /**
   * The version of the stored layout, for adapters that persist data and migrate it forward on
   * open. Adapters that keep nothing (memory) may leave it out.
   */
  schemaVersion?(): Promise<number>;
  /** Releases resources (connections, file handles). Calling it again does nothing. */
  close(): Promise<void>;
}
