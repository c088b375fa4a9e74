import { createId, type AssistantMessage, type ModelMessageCache, type Part } from "@lathe/message";
import { klona as cloneData } from "klona/json";
import type { AgentEvent } from "../events.js";
import type { SessionWriter } from "../session/session-writer.js";

type NewPart<P extends Part> = P extends Part ? Omit<P, "id" | "sessionID" | "messageID"> : never;

/**
 * Records one assistant message as it is built: every change is emitted at once (deltas included)
 * and handed to the coalescing writer, so listeners see everything live while storage sees a few
 * writes per part.
 */
export class TurnRecorder {
  readonly parts: Part[];
  /** The model-message cache of the turn's requests, told of every part changed or removed here. */
  messageCache: ModelMessageCache | undefined;

  constructor(
    readonly message: AssistantMessage,
    private readonly writer: SessionWriter,
    private readonly emit: (event: AgentEvent) => void,
    /** Parts the message already has (a resumed turn). */
    parts: Part[] = [],
  ) {
    this.parts = parts;
  }

  /** The call ids of the message's tool parts, kept as parts are added (made on first use, dropped on a removal). */
  private callIDs: Set<string> | undefined;

  /** Adds a part to the message (given without ids) and returns it. */
  add<P extends Part>(fields: NewPart<P>): P {
    const part = { ...fields, id: createId("part"), sessionID: this.message.sessionID, messageID: this.message.id } as unknown as P;
    this.parts.push(part);
    if (part.type === "tool") this.callIDs?.add(part.callID);
    this.changed(part);
    return part;
  }

  /** Whether a tool part of this message has the call id (without a scan: a turn may hold thousands of calls). */
  hasCall(callID: string): boolean {
    this.callIDs ??= new Set(this.parts.flatMap((p) => (p.type === "tool" ? [p.callID] : [])));
    return this.callIDs.has(callID);
  }

  /**
   * Reports a change made to a part of this message; `delta` is the text just appended, if any.
   * Listeners get a snapshot: parts replace their nested objects (state, time) rather than mutate
   * them, so a shallow copy is enough and costs the same for a long text as for a short one.
   */
  changed(part: Part, delta?: string): void {
    this.writer.part(part);
    this.messageCache?.changed(part);
    const snapshot = { ...part } as Part;
    this.emit(
      delta === undefined
        ? { type: "message.part.updated", sessionID: part.sessionID, part: snapshot }
        : { type: "message.part.updated", sessionID: part.sessionID, part: snapshot, delta },
    );
  }

  /** Takes parts back out of the message (the output of a failed attempt that is retried). */
  remove(parts: Part[]): void {
    const gone = new Set(parts);
    this.messageCache?.clear();
    this.callIDs = undefined;
    for (let i = this.parts.length - 1; i >= 0; i--) if (gone.has(this.parts[i]!)) this.parts.splice(i, 1);
    for (const part of parts) {
      this.writer.removePart(part);
      this.emit({ type: "message.part.removed", sessionID: part.sessionID, messageID: part.messageID, partID: part.id });
    }
  }

  /** Reports a change made to the message itself. */
  messageChanged(): void {
    this.writer.message(this.message);
    this.messageStored();
  }

  /**
   * Reports a change to the message that was stored by other means (its close, written with the
   * session's totals): listeners hear of it, and no later write repeats it — a write after the turn
   * could bring back a message a revert has since dropped.
   */
  messageStored(): void {
    this.emit({ type: "message.updated", sessionID: this.message.sessionID, message: cloneData(this.message) });
  }
}
