// The running tool calls of a turn: a spinner with the newest call's title and elapsed time, and a
// line per call when it ends (✔ or ✖). Several calls may run at once (reads run in parallel). Under a
// live footer (the user may type while the agent works) the spinner is the footer's first line.
import { stripVTControlCharacters } from "node:util";
import pc from "picocolors";
import yoctoSpinner, { type Spinner } from "yocto-spinner";
import type { LiveFooter } from "./live-footer.ts";

interface Active {
  label: string;
  start: number;
  /** When the call began waiting for an approval, while it waits: its clock stands still. */
  heldAt?: number;
}

/** How long a call has run: up to now, or up to the approval it waits for. */
const ranFor = (call: Active) => (call.heldAt ?? Date.now()) - call.start;

/** Seconds with one decimal, e.g. "1.4s". */
export const elapsed = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export class ToolSpinner {
  private readonly active = new Map<string, Active>();
  private spinner: Spinner | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private paused = false;
  private frame = 0;
  private readonly out: NodeJS.WriteStream;
  private readonly live: LiveFooter | undefined;

  constructor(out: NodeJS.WriteStream, live?: LiveFooter) {
    this.out = out;
    this.live = live;
  }

  /** A call started or changed its label (its title arrived); `restart` starts its clock again (it began running). */
  update(id: string, label: string, restart = false): void {
    const known = this.active.get(id);
    this.active.set(id, { label, start: !restart && known ? known.start : Date.now() });
    this.render();
  }

  /** A call waits for an approval: its clock stops until {@link release}, so the wait is not counted. */
  hold(id: string): void {
    const call = this.active.get(id);
    if (call && call.heldAt === undefined) call.heldAt = Date.now();
  }

  /** The call's approval was answered: its clock goes on from where it stopped. */
  release(id: string): void {
    const call = this.active.get(id);
    if (!call || call.heldAt === undefined) return;
    call.start += Date.now() - call.heldAt;
    call.heldAt = undefined;
  }

  /** A call ended: its line replaces the spinner. Returns how long it ran (approval waits left out). */
  finish(id: string, ok: boolean, label: string): number {
    const call = this.active.get(id);
    const ran = call ? ranFor(call) : 0;
    this.active.delete(id);
    this.stopSpinner();
    this.print(`${ok ? pc.green("✔") : pc.red("✖")} ${label} ${pc.dim(elapsed(ran))}\n`);
    this.render();
    return ran;
  }

  /** Hides the spinner while something else uses the terminal (streamed text, a prompt). */
  pause(): void {
    this.paused = true;
    this.stopSpinner();
  }

  resume(): void {
    this.paused = false;
    this.render();
  }

  /** Stops everything at the end of a turn. */
  clear(): void {
    this.active.clear();
    this.stopSpinner();
  }

  private render(): void {
    if (this.paused || this.active.size === 0) return this.stopSpinner();
    if (this.live) return this.renderLive();
    const text = this.text();
    if (!this.spinner) {
      this.spinner = yoctoSpinner({ text, stream: this.out, handleSignals: false }).start();
      this.ticker = setInterval(() => {
        if (this.spinner) this.spinner.text = this.text();
      }, 100);
    } else {
      this.spinner.text = text;
    }
  }

  /** The spinner as the live footer's first line, turned by the ticker. */
  private renderLive(): void {
    const live = this.live!;
    const draw = () => {
      this.frame = (this.frame + 1) % FRAMES.length;
      live.setStatus({ text: `${FRAMES[this.frame]} ${stripVTControlCharacters(this.text())}`, style: (text) => pc.cyan(text.slice(0, 1)) + text.slice(1) });
    };
    draw();
    this.ticker ??= setInterval(draw, 100);
  }

  private print(text: string): void {
    if (this.live) this.live.write(text);
    else this.out.write(text);
  }

  private text(): string {
    const entries = [...this.active.values()];
    const newest = entries[entries.length - 1]!;
    const more = entries.length > 1 ? pc.dim(` (+${entries.length - 1} more)`) : "";
    return `${newest.label} ${pc.dim(elapsed(ranFor(newest)))}${more}`;
  }

  private stopSpinner(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    this.spinner?.stop();
    this.spinner = undefined;
    this.live?.setStatus(undefined);
  }
}
