import type { MessageWithParts } from "@lathe/message";

/** A steered message waiting for the running turn, and whether that turn has taken it. */
export interface SteerEntry {
  message: MessageWithParts;
  /** Set when a turn takes the message into its next request. */
  taken: boolean;
}

/**
 * The messages steered into each session's running turn (`whileBusy: "steer"`), stored and waiting
 * for the turn's next request. The turn takes them between steps; the agent's runs add them, drop
 * one whose run was aborted before it was taken, and hand those no turn took to a turn of their own.
 */
export class SteerInbox {
  private readonly waiting = new Map<string, SteerEntry[]>();
  /** The agent answering each session's running turn: a steered message is read under its rules. */
  private readonly agents = new Map<string, string>();

  /** Notes the agent of the session's running turn (until {@link leave}). */
  enter(sessionID: string, agent: string): void {
    this.agents.set(sessionID, agent);
  }

  /** The session's turn ended. */
  leave(sessionID: string): void {
    this.agents.delete(sessionID);
  }

  /** The agent answering the session's running turn, if one runs. */
  agentOf(sessionID: string): string | undefined {
    return this.agents.get(sessionID);
  }

  /** Adds a stored message for the session's running turn. */
  add(sessionID: string, message: MessageWithParts): SteerEntry {
    const entry: SteerEntry = { message, taken: false };
    const list = this.waiting.get(sessionID);
    if (list) list.push(entry);
    else this.waiting.set(sessionID, [entry]);
    return entry;
  }

  /** Whether messages wait for the session's turn. */
  has(sessionID: string): boolean {
    return (this.waiting.get(sessionID)?.length ?? 0) > 0;
  }

  /** Takes the waiting messages (all, or those whose ids sort before `before`), in id order, marking them taken. */
  take(sessionID: string, before?: string): MessageWithParts[] {
    const list = this.waiting.get(sessionID);
    if (!list) return [];
    const taken = list.filter((entry) => before === undefined || entry.message.info.id < before);
    const left = list.filter((entry) => !taken.includes(entry));
    if (left.length > 0) this.waiting.set(sessionID, left);
    else this.waiting.delete(sessionID);
    for (const entry of taken) entry.taken = true;
    return taken.map((entry) => entry.message).sort((a, b) => (a.info.id < b.info.id ? -1 : a.info.id > b.info.id ? 1 : 0));
  }

  /** Takes one entry out without a turn taking it (its run was aborted); false when a turn took it already. */
  remove(sessionID: string, entry: SteerEntry): boolean {
    const list = this.waiting.get(sessionID);
    const at = list?.indexOf(entry) ?? -1;
    if (at < 0) return false;
    list!.splice(at, 1);
    if (list!.length === 0) this.waiting.delete(sessionID);
    return true;
  }

  /** Removes and returns what no turn took (the turn ended first): they need a turn of their own. */
  drain(sessionID: string): SteerEntry[] {
    const list = this.waiting.get(sessionID) ?? [];
    this.waiting.delete(sessionID);
    return list;
  }
}
