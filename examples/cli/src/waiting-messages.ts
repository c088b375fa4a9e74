// The messages the user sent while the agent worked, until the agent takes them: a steered one until
// the running turn reads it (`message.steered`), a queued one until its own turn starts. The footer
// shows each as `↳ queued: …`.
import type { Run } from "@lathe/core";
import pc from "picocolors";
import type { FooterLine } from "./live-footer.ts";

/**
 * One message sent while the agent worked: `steer` joins the running turn, `queue` waits for a turn of
 * its own, `turn` already has one (the session was idle when it was sent) and waits to be shown.
 */
export interface WaitingMessage {
  text: string;
  mode: "steer" | "queue" | "turn";
  run: Run;
  /** Its message is stored (`run.stored` resolved). */
  stored: boolean;
  /** The id of its user message, once stored (a steered one's is what `message.steered` names). */
  messageID?: string;
}

/** Footer lines the list takes at most. */
const MAX_LINES = 5;

/** The footer line of a waiting message. */
export function waitingLine(message: WaitingMessage): FooterLine {
  const when = message.mode === "steer" ? "the agent reads it at its next step" : "its own turn, after this one";
  return { text: `↳ queued: ${message.text} (${when})`, style: pc.yellow };
}

export class WaitingMessages {
  private entries: WaitingMessage[] = [];
  private readonly changed: (lines: FooterLine[]) => void;

  /** `changed` gets the footer lines whenever the list changes. */
  constructor(changed: (lines: FooterLine[]) => void) {
    this.changed = changed;
  }

  get size(): number {
    return this.entries.length;
  }

  add(message: WaitingMessage): void {
    this.entries.push(message);
    this.update();
  }

  /** Takes a message out; returns whether it was still waiting. */
  remove(message: WaitingMessage): boolean {
    const at = this.entries.indexOf(message);
    if (at < 0) return false;
    this.entries.splice(at, 1);
    this.update();
    return true;
  }

  /**
   * A steered message entered the turn (`message.steered`): it leaves the list — found by its id, or
   * by its text while its id is not known yet.
   */
  entered(messageID: string, text: string | undefined): void {
    const steered = this.entries.filter((entry) => entry.mode === "steer");
    const message = steered.find((entry) => entry.messageID === messageID) ?? steered.find((entry) => entry.messageID === undefined && entry.text === text);
    if (message) this.remove(message);
  }

  /** Settles once every waiting message is stored or failed to be (then {@link next} can decide). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.entries.filter((entry) => !entry.stored).map((entry) => entry.run.stored));
  }

  /**
   * What has the next turn once the shown one ended: the stored steered messages no turn took (one
   * turn answers them all, before the queue, as the agent does), else the first message with a turn
   * of its own. They leave the list.
   */
  next(): WaitingMessage[] {
    const steered = this.entries.filter((entry) => entry.mode === "steer" && entry.stored);
    const taken = steered.length > 0 ? steered : this.entries.filter((entry) => entry.mode !== "steer").slice(0, 1);
    this.entries = this.entries.filter((entry) => !taken.includes(entry));
    if (taken.length > 0) this.update();
    return taken;
  }

  /** Takes every waiting message out of the list and returns them. */
  takeAll(): WaitingMessage[] {
    const all = this.entries;
    this.entries = [];
    this.update();
    return all;
  }

  private update(): void {
    // A long list would push the input line off the screen: its start is shown, and how many more.
    const lines = this.entries.slice(0, this.entries.length > MAX_LINES ? MAX_LINES - 1 : MAX_LINES).map(waitingLine);
    const more = this.entries.length - lines.length;
    this.changed(more > 0 ? [...lines, { text: `↳ … and ${more} more`, style: pc.yellow }] : lines);
  }
}
