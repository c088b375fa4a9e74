// The line the user types in while the agent works. The terminal is in raw mode, so keys come one by
// one: printable ones edit the line (shown in the live footer), Enter sends it — steered into the
// running turn — and Alt+Enter or a `/queue ` prefix sends it for a turn of its own. Ctrl+C is a key
// here, not a signal, and is handed to the caller.
import { emitKeypressEvents } from "node:readline";
import pc from "picocolors";
import { displayWidth, fitWidthFromEnd, type LiveFooter } from "./live-footer.ts";

/** How a message typed during a turn reaches the agent (`whileBusy` of `agent.prompt`). */
export type SendMode = "steer" | "queue";

const PROMPT = "› ";
const QUEUE_COMMAND = "/queue";
const HINT = "type to steer the agent · Enter sends · Alt+Enter or /queue <text>: a turn of its own";

/** What Enter sends: the message and how (Alt+Enter or a `/queue ` prefix queue it), or nothing for an empty line. */
export function parseSubmit(line: string, altEnter: boolean): { text: string; mode: SendMode } | undefined {
  const trimmed = line.trim();
  const prefixed = trimmed === QUEUE_COMMAND || trimmed.startsWith(`${QUEUE_COMMAND} `);
  const text = prefixed ? trimmed.slice(QUEUE_COMMAND.length).trim() : trimmed;
  if (text === "") return undefined;
  return { text, mode: altEnter || prefixed ? "queue" : "steer" };
}

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

export interface TypeAheadHandlers {
  /** A line was sent. */
  send(text: string, mode: SendMode): void;
  /** Ctrl+C. */
  interrupt(): void;
}

export class TypeAhead {
  private text = "";
  private listening = false;
  private readonly input: NodeJS.ReadStream;
  private readonly footer: LiveFooter;
  private readonly handlers: TypeAheadHandlers;
  private readonly listener = (chunk: string | undefined, key: Key | undefined) => this.key(chunk, key ?? {});

  constructor(input: NodeJS.ReadStream, footer: LiveFooter, handlers: TypeAheadHandlers) {
    this.input = input;
    this.footer = footer;
    this.handlers = handlers;
    emitKeypressEvents(input);
  }

  /** Starts reading keys, with `text` already on the line (kept from before). */
  start(text = ""): void {
    this.text = text;
    this.listen();
    this.render();
  }

  /** Stops reading keys; returns what is typed and not sent, for the next prompt. */
  stop(): string {
    this.unlisten();
    this.footer.setInput(undefined);
    const left = this.text;
    this.text = "";
    return left;
  }

  /** Lets another prompt (an approval menu) read the keys; what is typed stays. */
  pause(): void {
    this.unlisten();
  }

  /** Reads the keys again after {@link pause} (the other prompt left raw mode and paused the input). */
  resume(): void {
    this.listen();
    this.render();
  }

  /** Puts text back at the start of the line (messages taken back from the agent). */
  putBack(text: string): void {
    this.text = this.text ? `${text} ${this.text}` : text;
    this.render();
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.input.setRawMode(true);
    this.input.on("keypress", this.listener);
    this.input.resume();
  }

  private unlisten(): void {
    if (!this.listening) return;
    this.listening = false;
    this.input.off("keypress", this.listener);
    this.input.setRawMode(false);
    this.input.pause();
  }

  private key(chunk: string | undefined, key: Key): void {
    if (key.ctrl && key.name === "c") return this.handlers.interrupt();
    if (key.name === "return" || key.name === "enter") {
      const sent = parseSubmit(this.text, key.meta === true);
      if (!sent) return;
      this.text = "";
      this.render();
      this.handlers.send(sent.text, sent.mode);
      return;
    }
    if (key.name === "backspace") this.text = [...this.text].slice(0, -1).join("");
    else if (key.ctrl && key.name === "u") this.text = "";
    else if (key.ctrl && key.name === "w") this.text = this.text.replace(/\S*\s*$/, "");
    else if (chunk && !key.ctrl && !key.meta && chunk >= " " && chunk !== "\x7f") this.text += chunk;
    else return;
    this.render();
  }

  private render(): void {
    if (!this.listening) return;
    if (this.text === "") {
      this.footer.setInput({ text: `${PROMPT}${HINT}`, style: (text) => pc.cyan(PROMPT) + pc.dim(text.slice(PROMPT.length)) }, PROMPT.length);
      return;
    }
    // A line longer than the terminal shows its end, where the user types (the cursor's column is left free).
    const shown = fitWidthFromEnd(this.text, this.footer.columns - 1 - PROMPT.length - 1);
    this.footer.setInput({ text: `${PROMPT}${shown}`, style: (text) => pc.cyan(PROMPT) + text.slice(PROMPT.length) }, displayWidth(`${PROMPT}${shown}`));
  }
}
