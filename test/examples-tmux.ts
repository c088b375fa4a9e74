import { execFileSync } from "node:child_process";

/** A program running in a tmux pane: a real pseudo-terminal that tests type into and read from. */
export class TmuxPane {
  private readonly socket = `lathe-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  /** Starts `argv` in a new detached pane; when it exits the pane shows `EXITED-<code>`. */
  constructor(argv: string[], options: { cwd: string; width?: number; height?: number }) {
    const command = `${argv.map(quote).join(" ")}; echo EXITED-$?; sleep 600`;
    this.tmux("new-session", "-d", "-s", "main", "-x", String(options.width ?? 120), "-y", String(options.height ?? 50), "-c", options.cwd, command);
    // Keep everything the program wrote, not only what fits on the screen.
    this.tmux("set-option", "-t", "main", "history-limit", "10000");
  }

  /** The whole pane, scroll-back included; `ansi` keeps colours as escape codes; `rows` keeps each screen row apart (wrapped lines are not joined). */
  screen(ansi = false, rows = false): string {
    return this.tmux("capture-pane", "-p", ...(rows ? [] : ["-J"]), "-S", "-", "-t", "main", ...(ansi ? ["-e"] : []));
  }

  /** Types keys (tmux key names such as `Enter`, `Down`, `C-c`, or literal text). */
  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", "main", ...keys);
  }

  /** Types text literally. */
  type(text: string): void {
    this.tmux("send-keys", "-t", "main", "-l", text);
  }

  /** Waits until the screen matches, and returns it; fails with the screen when it does not in time. */
  async waitFor(pattern: string | RegExp, timeoutMs = 15_000, after = 0): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      const rest = screen.slice(after);
      if (typeof pattern === "string" ? rest.includes(pattern) : pattern.test(rest)) return screen;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${String(pattern)}. Screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Stops tmux and the program in it. */
  close(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // Already gone.
    }
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
