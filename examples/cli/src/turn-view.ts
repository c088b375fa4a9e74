// Shows one turn's events in the terminal: streamed text, tool calls with a spinner, coloured diffs
// of edits, a short tail of command output, errors and the todo list.
import type { AgentEvent } from "@lathe/core";
import pc from "picocolors";
import { colorDiff } from "./diff-view.ts";
import type { LiveFooter } from "./live-footer.ts";
import { ToolSpinner } from "./tool-spinner.ts";
import { WordWrap } from "./word-wrap.ts";

type Part = Extract<AgentEvent, { type: "message.part.updated" }>["part"];
type ToolPart = Extract<Part, { type: "tool" }>;

const OUTPUT_LINES = 8;

/** A one-line label of a tool call: its name and what it works on. */
export function toolLabel(part: ToolPart): string {
  const state = part.state;
  const title = "title" in state && state.title ? state.title : undefined;
  const input = state.input;
  const subject = title ?? (typeof input.command === "string" ? input.command : typeof input.path === "string" ? input.path : typeof input.pattern === "string" ? input.pattern : "");
  return `${pc.bold(part.tool)}${subject ? ` ${subject}` : ""}`;
}

export class TurnView {
  private readonly tools: ToolSpinner;
  private readonly shown = new Set<string>();
  private readonly running = new Set<string>();
  /** Tool calls whose diff the approval prompt already showed. */
  private readonly diffShown = new Set<string>();
  /** Tool part ids by call id, and by permission request id the calls waiting for an approval. */
  private readonly partOfCall = new Map<string, string>();
  private readonly waiting = new Map<string, string>();
  /** The error of the retry part just recorded, shown on the retry line that follows it. */
  private atLineStart = true;
  private streaming: "text" | "reasoning" | undefined;
  private readonly out: NodeJS.WriteStream;
  /** The live footer the output goes around, in an interactive terminal. */
  private readonly live: LiveFooter | undefined;
  /** The text of the user messages seen, by message id: a steered one is shown where it enters the turn. */
  private readonly userTexts = new Map<string, Map<string, string>>();
  /** Streamed text is wrapped at word boundaries to the terminal's width (not wrapped when not a terminal). */
  private readonly wrap: WordWrap;
  /** Characters of text and reasoning streamed since {@link startTurn}: an estimate when a stopped turn reports no usage. */
  private streamed = 0;

  /** `live`: in an interactive terminal, the footer under the output (the spinner then draws in it). */
  constructor(out: NodeJS.WriteStream, live?: LiveFooter) {
    this.out = out;
    this.live = live;
    this.tools = new ToolSpinner(out, live);
    this.wrap = new WordWrap(() => (out.isTTY && out.columns ? out.columns : undefined));
  }

  /** Starts counting a new turn's streamed text. */
  startTurn(): void {
    this.streamed = 0;
  }

  /** The text of a user message this view saw (a steered one's, when it enters the turn). */
  userText(messageID: string): string | undefined {
    const parts = this.userTexts.get(messageID);
    return parts && [...parts.values()].join(" ");
  }

  /** Characters of text and reasoning the model streamed this turn. */
  get streamedChars(): number {
    return this.streamed;
  }

  /** Shows one event. */
  show(event: AgentEvent): void {
    switch (event.type) {
      case "message.updated":
        if (event.message.role === "user" && !this.userTexts.has(event.message.id)) this.userTexts.set(event.message.id, new Map());
        return;
      case "message.part.updated":
        return this.part(event.part, event.delta);
      case "message.steered":
        // The message the user typed during the turn, where the turn took it in.
        this.note(`${pc.cyan("›")} ${this.userText(event.messageID) ?? ""}`);
        return;
      case "session.error":
        this.endLine();
        this.tools.pause();
        this.print(`${pc.red("error")} ${event.error.message}\n`);
        this.tools.resume();
        return;
      case "session.status":
        if (event.status.type === "retry") {
          this.endLine();
          const seconds = Math.max(0, Math.round((event.status.next - Date.now()) / 1000));
          // The status names the kind of failure and its cause (`Connection lost: terminated (ECONNRESET …)`).
          this.print(pc.yellow(`${event.status.message}: retrying in ${seconds} s (attempt ${event.status.attempt})\n`));
        }
        return;
      case "permission.asked": {
        // While a call waits for its approval its clock stops: its time is the tool's own.
        const callID = event.request.tool?.callID;
        const partID = callID === undefined ? undefined : this.partOfCall.get(callID);
        if (partID) {
          this.waiting.set(event.request.id, partID);
          this.tools.hold(partID);
        }
        return;
      }
      case "permission.replied": {
        const partID = this.waiting.get(event.requestID);
        this.waiting.delete(event.requestID);
        if (partID) this.tools.release(partID);
        return;
      }
      case "session.compacted":
        this.note(pc.dim("(the conversation was summarised to fit the model's context)"));
        return;
      case "budget.exceeded":
        this.note(pc.yellow(`budget reached: ${event.budget.limit} ${event.budget.used} of ${event.budget.max} (${event.budget.scope})`));
        return;
      case "todo.updated":
        this.endLine();
        this.tools.pause();
        for (const todo of event.todos) {
          const mark = todo.status === "completed" ? pc.green("☑") : todo.status === "in_progress" ? pc.yellow("◐") : "☐";
          this.print(`  ${mark} ${todo.content}\n`);
        }
        this.tools.resume();
        return;
      default:
        return;
    }
  }

  /** Puts the cursor on a fresh line and hides the spinner, before a prompt writes to the terminal. */
  suspend(): void {
    this.endLine();
    this.tools.pause();
  }

  resume(): void {
    this.tools.resume();
  }

  /** Remembers that the approval prompt showed this call's diff, so it is not shown twice. */
  diffSeen(callID: string): void {
    this.diffShown.add(callID);
  }

  /** Ends the turn's output. */
  finish(): void {
    this.tools.clear();
    this.endLine();
  }

  /** Writes a line of the CLI's own (not the model's). */
  note(text: string): void {
    this.endLine();
    this.tools.pause();
    this.print(`${text}\n`);
    this.tools.resume();
  }

  private part(part: Part, delta: string | undefined): void {
    const userParts = this.userTexts.get(part.messageID);
    if (userParts) {
      if (part.type === "text" && !part.synthetic) userParts.set(part.id, part.text);
      return;
    }
    if (part.type === "text" && delta && !part.synthetic) return this.stream("text", delta);
    if (part.type === "reasoning" && delta) return this.stream("reasoning", delta);
    if (part.type === "tool") return this.tool(part);
  }

  private stream(kind: "text" | "reasoning", delta: string): void {
    this.tools.pause();
    if (this.streaming !== kind) this.endLine();
    this.streaming = kind;
    this.streamed += delta.length;
    this.write(styled(kind, this.wrap.push(delta)));
  }

  private tool(part: ToolPart): void {
    if (this.shown.has(part.id)) return;
    this.endLine();
    this.streaming = undefined;
    const state = part.state;
    this.partOfCall.set(part.callID, part.id);
    if (state.status === "pending" || state.status === "running") {
      // The clock starts when the call runs, so time spent reading an approval prompt is not counted.
      const started = state.status === "running" && !this.running.has(part.id);
      if (started) this.running.add(part.id);
      this.tools.update(part.id, toolLabel(part), started);
      this.tools.resume();
      return;
    }
    this.shown.add(part.id);
    if (state.status === "error") {
      this.tools.finish(part.id, false, `${toolLabel(part)} ${pc.red(state.error.split("\n")[0] ?? "")}`);
      return;
    }
    this.tools.finish(part.id, true, toolLabel(part));
    this.tools.pause();
    const diff = typeof state.metadata.diff === "string" ? state.metadata.diff : "";
    if (diff && !this.diffShown.has(part.callID)) this.print(`${colorDiff(diff)}\n`);
    else if (part.tool === "bash") this.print(tail(state.output));
    this.tools.resume();
  }

  /** Writes output: around the live footer when there is one. */
  private print(text: string): void {
    if (this.live) this.live.write(text);
    else this.out.write(text);
  }

  private write(text: string): void {
    if (text === "") return;
    this.print(text);
    this.atLineStart = text.endsWith("\n");
  }

  private endLine(): void {
    // The word the wrapper held back (the stream's last) is written before anything else.
    const held = this.wrap.flush();
    if (held) this.write(styled(this.streaming, held));
    if (!this.atLineStart) this.print("\n");
    this.atLineStart = true;
    this.wrap.reset();
  }
}

function styled(kind: "text" | "reasoning" | undefined, text: string): string {
  if (text === "") return "";
  return kind === "reasoning" ? pc.dim(pc.italic(text)) : text;
}

/** The last lines of a command's output, dimmed and indented. */
function tail(output: string): string {
  const lines = output.split("\n").filter((line) => line.trim() !== "");
  const shown = lines.slice(-OUTPUT_LINES);
  const skipped = lines.length - shown.length;
  return `${skipped > 0 ? pc.dim(`    … ${skipped} more line(s)\n`) : ""}${shown.map((line) => pc.dim(`    ${line}`)).join("\n")}\n`;
}
