// Ctrl+C: the first press stops the running turn (or, at the prompt, warns); a second press within
// two seconds exits. During a turn the terminal turns Ctrl+C into SIGINT; at a prompt Inquirer reads
// it as a key and the caller reports it here.

const DOUBLE_PRESS_MS = 2000;

export class Interrupts {
  private last = 0;
  private current: { abort(reason?: string): void } | undefined;
  private readonly onExit: () => void;
  private readonly onNotice: (text: string) => void;
  private readonly listener = () => this.press();

  constructor(options: { onExit: () => void; onNotice: (text: string) => void }) {
    this.onExit = options.onExit;
    this.onNotice = options.onNotice;
    process.on("SIGINT", this.listener);
  }

  /** The turn Ctrl+C stops, while it runs. */
  watch(run: { abort(reason?: string): void } | undefined): void {
    this.current = run;
  }

  /** Ctrl+C was pressed. */
  press(): void {
    const now = Date.now();
    if (now - this.last < DOUBLE_PRESS_MS) return this.onExit();
    this.last = now;
    if (this.current) {
      this.current.abort("interrupted by the user");
      this.current = undefined;
      this.onNotice("Interrupted. Press Ctrl+C again to exit.");
    } else {
      this.onNotice("Press Ctrl+C again to exit.");
    }
  }

  dispose(): void {
    process.off("SIGINT", this.listener);
  }
}
