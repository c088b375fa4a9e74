import type { SessionUpdate } from "@agentclientprotocol/sdk";

type Chunk = Extract<SessionUpdate, { sessionUpdate: "agent_message_chunk" | "agent_thought_chunk" }>;

/**
 * Sends a session's updates in order, one notification at a time, without holding up the turn: while
 * one is being written, text chunks that arrive for the same message and kind are joined into the
 * next one. A model streaming faster than the editor reads costs a few large notifications instead
 * of one per delta; a slow one still gets every delta at once.
 */
export class UpdateQueue {
  private readonly waiting: SessionUpdate[] = [];
  private pumping: Promise<void> | undefined;
  private failure: unknown;

  constructor(private readonly send: (update: SessionUpdate) => Promise<void>) {}

  /** Queues an update. */
  push(update: SessionUpdate): void {
    const last = this.waiting.at(-1);
    if (last && joinable(last, update)) {
      const text = (last.content as { text: string }).text + ((update as Chunk).content as { text: string }).text;
      this.waiting[this.waiting.length - 1] = { ...last, content: { type: "text", text } };
    } else {
      this.waiting.push(update);
    }
    this.pumping ??= this.pump();
  }

  /** Resolves when every queued update was sent; rejects with the first failure to send one. */
  async drained(): Promise<void> {
    while (this.pumping) await this.pumping;
    if (this.failure !== undefined) throw this.failure;
  }

  private async pump(): Promise<void> {
    try {
      for (let next = this.waiting.shift(); next; next = this.waiting.shift()) {
        try {
          await this.send(next);
        } catch (error) {
          this.failure ??= error;
        }
      }
    } finally {
      this.pumping = undefined;
    }
  }
}

function joinable(a: SessionUpdate, b: SessionUpdate): a is Chunk {
  return (
    (a.sessionUpdate === "agent_message_chunk" || a.sessionUpdate === "agent_thought_chunk") &&
    a.sessionUpdate === b.sessionUpdate &&
    a.messageId === (b as Chunk).messageId &&
    a.content.type === "text" &&
    (b as Chunk).content.type === "text"
  );
}
