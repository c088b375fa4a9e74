// Turns one run's events into UI message chunks. Each part is brought up to date from its latest
// version ("what has the client not seen yet?"), so a part seen for the first time complete, a part
// replayed after a retry took others back, and a part streamed delta by delta all come out alike.
import type { AssistantMessage, Part, ReasoningPart, TextPart, ToolPart } from "@lathe/message";
import type { ProviderMetadata, UIMessageChunk } from "ai";
import type { AgentEvent } from "../events.js";
import { approvalOf, dataPartOf, toolOutput } from "./ui-parts.js";
import type { LatheUIDataTypes, LatheUIMessageMetadata } from "./ui-types.js";

/** A chunk of a Lathe UI message stream. */
export type LatheUIMessageChunk = UIMessageChunk<LatheUIMessageMetadata, LatheUIDataTypes>;

interface TextProgress {
  sent: number;
  ended: boolean;
}

interface ToolProgress {
  started: boolean;
  rawSent: number;
  inputSent: boolean;
  /** The approval request the call waits on, and whether the client was told. */
  request?: { id: string; sent: boolean };
  /** The approval answer the client was told of. */
  answered?: string;
  done: boolean;
  /** The step (counted from 1) whose `start-step` the call's part was made after. */
  step: number;
}

/** The chunks of a run's events, for the run's own session and its answer. */
export class UIChunkTranslator {
  private messageID: string | undefined;
  /** The run's assistant messages that are part of the answer (compaction summaries are not). */
  private readonly answers = new Set<string>();
  /** The current step's parts, latest versions in the order they appeared. */
  private step: Part[] = [];
  /** The current step's step-start part, and whether the client shows one that was taken back. */
  private stepStart: string | undefined;
  private orphanStepStart = false;
  private readonly texts = new Map<string, TextProgress>();
  private readonly tools = new Map<string, ToolProgress>();
  /** Approval requests (by call) that arrived before their call did. */
  private readonly earlyRequests = new Map<string, string>();
  /** What the user typed in messages of this session seen in the run (a steered message's text). */
  private readonly userTexts = new Map<string, string>();
  /** Chunks of events before the answer's `start` (a status, a permission), sent right after it. */
  private beforeStart: LatheUIMessageChunk[] = [];
  /** Steps begun so far; the client's reader puts a tool chunk in the part of its call found in the last one. */
  private steps = 0;
  /**
   * A new step's chunks, held while a call of an earlier step still waits for its input to be
   * complete: the AI SDK's reader looks a call's input chunks up in the current step only, so once
   * the new step began there it would make a second part for the call (a "ghost" card).
   */
  private held: Array<{ step: number; chunks: LatheUIMessageChunk[] }> = [];
  /** The latest version of the answer's message (how a rejoined run's stream ends). */
  answerInfo: AssistantMessage | undefined;

  constructor(private readonly sessionID: string) {}

  /** The chunks one event adds, in order. Chunks of events before the answer starts wait for its `start`. */
  translate(event: AgentEvent): LatheUIMessageChunk[] {
    if (event.sessionID !== this.sessionID) return this.fromSubagent(event);
    const out: LatheUIMessageChunk[] = this.messageID === undefined ? this.beforeStart : [];
    switch (event.type) {
      case "message.updated":
        if (event.message.role === "assistant") this.answer(event.message, out);
        break;
      case "message.part.updated":
        if (this.isAnswerPart(event.part)) this.part(event.part, out);
        else if (event.part.type === "text" && !event.part.synthetic && !this.userTexts.has(event.part.messageID)) this.userTexts.set(event.part.messageID, event.part.text);
        break;
      case "message.steered":
        // Where the message entered the turn: what streams after it answers it.
        this.endOpen(out);
        out.push({ type: "data-steer", id: event.messageID, data: { messageID: event.messageID, text: this.userTexts.get(event.messageID) ?? "" } });
        break;
      case "message.part.removed":
        this.removed(event.partID, out);
        break;
      case "permission.asked":
        out.push({ type: "data-permission", id: event.request.id, data: event.request, transient: true });
        if (event.request.tool) this.asked(event.request.tool.callID, event.request.id, out);
        break;
      case "file.edited":
        out.push({ type: "data-file-edited", data: { file: event.file }, transient: true });
        break;
      case "todo.updated":
        out.push({ type: "data-todos", data: { todos: event.todos }, transient: true });
        break;
      case "session.compacted":
        out.push({ type: "data-compaction", id: event.messageID, data: { auto: event.auto }, transient: true });
        break;
      case "session.status":
        out.push({ type: "data-status", data: event.status, transient: true });
        break;
      default:
        break;
    }
    if (this.messageID === undefined) return [];
    if (out === this.beforeStart) this.beforeStart = [];
    return out;
  }

  /**
   * A run hears its subagents' sessions too. They are not part of the answer, but their approval
   * requests wait on the same user: they come as transient `data-permission` parts (answer them by
   * id like any other).
   */
  private fromSubagent(event: AgentEvent): LatheUIMessageChunk[] {
    if (event.type !== "permission.asked" || this.messageID === undefined) return [];
    return [{ type: "data-permission", id: event.request.id, data: event.request, transient: true }];
  }

  /** The chunks that close the stream: open parts ended, the failure or abort, `finish`. */
  finish(info: AssistantMessage | undefined, failure?: string): LatheUIMessageChunk[] {
    const out: LatheUIMessageChunk[] = [];
    if (this.messageID === undefined) out.push({ type: "start", ...(info ? { messageId: info.id } : {}) }, ...this.beforeStart);
    this.release(out, true);
    this.endOpen(out);
    if (failure !== undefined) out.push({ type: "error", errorText: failure });
    else if (info?.finish === "aborted") out.push({ type: "abort", ...(info.error ? { reason: info.error.message } : {}) });
    else if (info?.error) out.push({ type: "error", errorText: info.error.message });
    return out;
  }

  private answer(message: AssistantMessage, out: LatheUIMessageChunk[]): void {
    if (message.summary) return;
    this.answers.add(message.id);
    this.answerInfo = message;
    if (this.messageID === undefined) {
      this.messageID = message.id;
      out.unshift({ type: "start", messageId: message.id });
    }
  }

  /** A part of the answer: of an assistant message of this run that is not a compaction summary. */
  private isAnswerPart(part: Part): boolean {
    return this.answers.has(part.messageID);
  }

  private part(part: Part, out: LatheUIMessageChunk[]): void {
    const call = part.type === "tool" ? this.tools.get(part.callID) : undefined;
    if (part.type === "tool" && call && call.step < this.steps) {
      // A call of an earlier step: its chunks follow the ones it already has, ahead of a step held
      // for it (it is not one of the current step's parts, which a reset-step would drop).
      this.syncTool(part, this.destination(call, out));
      this.release(out);
      return;
    }
    const to = this.held.at(-1)?.chunks ?? out;
    if (part.type === "step-start") {
      this.endOpen(to);
      this.step = [];
      this.stepStart = part.id;
      // The client still shows the step-start of a request that failed and was taken back: reuse it.
      if (this.orphanStepStart) {
        this.orphanStepStart = false;
        return;
      }
      this.steps++;
      if (this.held.length > 0 || this.inputPending(this.steps)) this.held.push({ step: this.steps, chunks: [{ type: "start-step" }] });
      else out.push({ type: "start-step" });
      return;
    }
    if (part.type === "retry") {
      out.push({ type: "data-retry", id: part.id, data: { attempt: part.attempt, error: part.error, createdAt: part.time.created }, transient: true });
      return;
    }
    if (part.type === "step-finish") {
      this.endOpen(to);
      to.push({ type: "finish-step" });
      return;
    }
    const index = this.step.findIndex((p) => p.id === part.id);
    if (index >= 0) this.step[index] = part;
    else this.step.push(part);
    this.sync(part, to);
  }

  /** Where a call's chunks go: after its own start, in its held step or to the client. */
  private destination(call: ToolProgress, out: LatheUIMessageChunk[]): LatheUIMessageChunk[] {
    return this.held.find((held) => held.step === call.step)?.chunks ?? out;
  }

  /** Whether a call of a step before `step` started and its input is not complete yet. */
  private inputPending(step: number): boolean {
    for (const call of this.tools.values()) if (call.step < step && call.started && !call.inputSent && !call.done) return true;
    return false;
  }

  /** Sends the held steps, oldest first, each once no call before it waits for its input (with `all`, every one). */
  private release(out: LatheUIMessageChunk[], all = false): void {
    while (this.held.length > 0 && (all || !this.inputPending(this.held[0]!.step))) out.push(...this.held.shift()!.chunks);
  }

  /** Brings one part up to date on the client. */
  private sync(part: Part, out: LatheUIMessageChunk[]): void {
    switch (part.type) {
      case "text":
      case "reasoning":
        this.syncText(part, out);
        return;
      case "tool":
        this.syncTool(part, out);
        return;
      case "file":
        out.push({ type: "file", url: part.url, mediaType: part.mime });
        return;
      default: {
        const data = dataPartOf(part);
        if (data) out.push(data);
      }
    }
  }

  private syncText(part: TextPart | ReasoningPart, out: LatheUIMessageChunk[]): void {
    const kind = part.type;
    let progress = this.texts.get(part.id);
    if (!progress) {
      progress = { sent: 0, ended: false };
      this.texts.set(part.id, progress);
      out.push({ type: `${kind}-start`, id: part.id });
    }
    if (progress.ended) return;
    if (part.text.length > progress.sent) {
      out.push({ type: `${kind}-delta`, id: part.id, delta: part.text.slice(progress.sent) });
      progress.sent = part.text.length;
    }
    if (part.time?.end !== undefined) this.endText(part, progress, out);
  }

  private endText(part: TextPart | ReasoningPart, progress: TextProgress, out: LatheUIMessageChunk[]): void {
    progress.ended = true;
    const metadata = part.providerMetadata ? { providerMetadata: part.providerMetadata as ProviderMetadata } : {};
    out.push({ type: `${part.type}-end`, id: part.id, ...metadata });
  }

  private syncTool(part: ToolPart, out: LatheUIMessageChunk[]): void {
    const toolCallId = part.callID;
    let progress = this.tools.get(toolCallId);
    if (!progress) {
      progress = { started: false, rawSent: 0, inputSent: false, done: false, step: this.steps };
      this.tools.set(toolCallId, progress);
      const early = this.earlyRequests.get(toolCallId);
      if (early !== undefined) progress.request = { id: early, sent: false };
      this.earlyRequests.delete(toolCallId);
    }
    const state = part.state;
    if (!progress.started) {
      progress.started = true;
      out.push({ type: "tool-input-start", toolCallId, toolName: part.tool });
    }
    if (state.status === "pending") {
      if (state.raw.length > progress.rawSent) {
        out.push({ type: "tool-input-delta", toolCallId, inputTextDelta: state.raw.slice(progress.rawSent) });
        progress.rawSent = state.raw.length;
      }
      return;
    }
    if (!progress.inputSent) {
      progress.inputSent = true;
      out.push({ type: "tool-input-available", toolCallId, toolName: part.tool, input: state.input });
    }
    if (progress.done) return;
    const approval = approvalOf(state);
    if (approval && progress.answered !== approval.id) {
      if (progress.request?.id !== approval.id || !progress.request.sent) out.push({ type: "tool-approval-request", approvalId: approval.id, toolCallId });
      progress.request = { id: approval.id, sent: true };
      progress.answered = approval.id;
      out.push({ type: "tool-approval-response", approvalId: approval.id, approved: approval.approved, ...(approval.reason !== undefined ? { reason: approval.reason } : {}) });
    } else if (progress.request && !progress.request.sent) {
      progress.request.sent = true;
      out.push({ type: "tool-approval-request", approvalId: progress.request.id, toolCallId });
    }
    if (state.status === "completed") {
      progress.done = true;
      out.push({ type: "tool-output-available", toolCallId, output: toolOutput(state) });
    } else if (state.status === "error") {
      progress.done = true;
      out.push(approval && !approval.approved ? { type: "tool-output-denied", toolCallId } : { type: "tool-output-error", toolCallId, errorText: state.error });
    }
  }

  private asked(callID: string, requestID: string, out: LatheUIMessageChunk[]): void {
    const progress = this.tools.get(callID);
    if (!progress) {
      this.earlyRequests.set(callID, requestID);
      return;
    }
    if (progress.done || progress.answered === requestID) return;
    progress.request = { id: requestID, sent: progress.inputSent };
    if (progress.inputSent) this.destination(progress, out).push({ type: "tool-approval-request", approvalId: requestID, toolCallId: callID });
  }

  /** A retried request's output was taken back: the client drops the step's parts and gets the survivors again. */
  private removed(partID: string, out: LatheUIMessageChunk[]): void {
    if (partID === this.stepStart) {
      this.stepStart = undefined;
      this.orphanStepStart = true;
      return;
    }
    const index = this.step.findIndex((p) => p.id === partID);
    if (index < 0) return;
    const to = this.held.at(-1)?.chunks ?? out;
    this.step.splice(index, 1);
    to.push({ type: "reset-step" });
    for (const part of this.step) {
      if (part.type === "tool") this.tools.delete(part.callID);
      else this.texts.delete(part.id);
    }
    for (const part of this.step) this.sync(part, to);
  }

  private endOpen(out: LatheUIMessageChunk[]): void {
    for (const part of this.step) {
      if (part.type !== "text" && part.type !== "reasoning") continue;
      const progress = this.texts.get(part.id);
      if (progress && !progress.ended) this.endText(part, progress, out);
    }
  }
}
