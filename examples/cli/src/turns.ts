// Answers a prompt and shows its turn; in a terminal, the user may type meanwhile. A line sent while
// the agent works is steered into the running turn (or, with Alt+Enter or `/queue`, queued for a turn
// of its own); it waits in the footer as `↳ queued: …` until the agent takes it, and then shows as
// `› …` where it entered. Once the turn ends, every message that got a turn of its own is shown, in
// the agent's order. Ctrl+C stops the running turn and takes the waiting messages back into the input
// line: a stop means nothing else starts until the user says so.
import { PromptDroppedError, SessionBusyError, type Agent, type AgentEvent, type Run } from "@lathe/core";
import pc from "picocolors";
import type { Interrupts } from "./interrupts.ts";
import type { LiveFooter } from "./live-footer.ts";
import type { TurnView } from "./turn-view.ts";
import type { SendMode, TypeAhead } from "./type-ahead.ts";
import { WaitingMessages, type WaitingMessage } from "./waiting-messages.ts";

export interface TurnsOptions {
  agent: Agent;
  sessionID: string;
  /** The agent (build, plan, explore) that answers the user's prompts. */
  agentName: string;
  view: TurnView;
  /** Where the CLI's own lines go: above the live footer while one is shown. */
  screen: LiveFooter;
  interrupts: Interrupts;
}

/** A turn to show: the run that streams it, and the user's messages it answers (echoed first). */
interface Shown {
  run: Run;
  echo: string[];
}

export class Turns {
  private readonly options: TurnsOptions;
  private readonly waiting: WaitingMessages;
  /** Events already shown: a steered message's run streams the session's events again from its start. */
  private readonly shown = new WeakSet<AgentEvent>();
  private typeAhead: TypeAhead | undefined;

  constructor(options: TurnsOptions) {
    this.options = options;
    this.waiting = new WaitingMessages((lines) => options.screen.setNotes(lines));
  }

  /** Lets the user type while the agent works (a terminal only). */
  attach(typeAhead: TypeAhead): void {
    this.typeAhead = typeAhead;
  }

  /**
   * Answers `text`, then every message sent meanwhile that has a turn of its own, showing each turn.
   * Returns what the user typed and did not send, for the next prompt.
   */
  async answer(text: string): Promise<string> {
    const { agent, sessionID, agentName, screen } = this.options;
    let next: Shown | undefined = { run: agent.prompt(sessionID, text, { agent: agentName }), echo: [] };
    let left = "";
    if (this.typeAhead) {
      screen.start();
      this.typeAhead.start();
    }
    try {
      while (next) {
        await this.show(next);
        await this.waiting.settled();
        const taken = this.waiting.next();
        next = taken[0] ? { run: taken[0].run, echo: taken.map((message) => message.text) } : undefined;
      }
    } finally {
      left = this.typeAhead?.stop() ?? "";
      screen.stop();
    }
    return left;
  }

  /** A line the user sent while the agent works. */
  send(text: string, mode: SendMode): void {
    const { agent, sessionID, agentName } = this.options;
    let message: WaitingMessage;
    try {
      try {
        // The turn may have just ended: then the message starts a turn of its own, with the CLI's agent.
        message = { text, mode: "turn", run: agent.prompt(sessionID, text, { agent: agentName, whileBusy: "reject" }), stored: false };
      } catch (error) {
        if (!(error instanceof SessionBusyError)) throw error;
        // A steered message joins the running turn, whose agent answers it: it cannot name one.
        const run = mode === "steer" ? agent.prompt(sessionID, text, { whileBusy: "steer" }) : agent.prompt(sessionID, text, { agent: agentName, whileBusy: "queue" });
        message = { text, mode, run, stored: false };
      }
    } catch (error) {
      this.options.view.note(pc.red(`Not sent: ${(error as Error).message}`));
      return;
    }
    void message.run.stored.then(
      (where) => {
        message.stored = true;
        message.messageID = where.messageID;
      },
      () => undefined,
    );
    // A message that fails before its turn leaves the list and says why; one taken back says nothing.
    message.run.then(undefined, (error: unknown) => {
      // A line of its own, as the turn's other notes: the model's text may be streaming.
      if (this.waiting.remove(message) && !(error instanceof PromptDroppedError)) this.options.view.note(pc.red(`Not sent: ${(error as Error).message}`));
    });
    this.waiting.add(message);
  }

  /** Shows one turn to its end, with its usage. */
  private async show({ run, echo }: Shown): Promise<void> {
    const { view, screen, interrupts } = this.options;
    for (const text of echo) screen.write(`${pc.cyan("›")} ${text}\n`);
    interrupts.watch({ abort: (reason) => this.stop(run, reason) });
    view.startTurn();
    try {
      for await (const event of run) {
        if (this.shown.has(event)) continue;
        this.shown.add(event);
        view.show(event);
        if (event.type === "message.steered") this.waiting.entered(event.messageID, view.userText(event.messageID));
      }
      const { info } = await run;
      view.finish();
      const stopped = info.finish === "aborted" || run.aborted;
      if (stopped) screen.write(pc.yellow("⏹ turn stopped\n"));
      const saved = info.cacheSaved ? ` · cache saved $${info.cacheSaved.toFixed(4)}` : "";
      screen.write(pc.dim(`${usageLine(info.tokens, stopped, view.streamedChars)}${info.cost ? ` · $${info.cost.toFixed(4)}` : ""}${saved}\n\n`));
    } catch (error) {
      view.finish();
      // A turn the user took back before it started has nothing to show.
      if (!(error instanceof PromptDroppedError)) screen.write(pc.red(`${(error as Error).message}\n\n`));
    } finally {
      interrupts.watch(undefined);
    }
  }

  /** Ctrl+C: the waiting messages come back to the input line (nothing answers them), then the turn stops. */
  private stop(run: Run, reason: string | undefined): void {
    // Dropped before the turn is stopped, so the agent does not start a turn for them in between.
    const back = this.dropWaiting();
    run.abort(reason);
    if (back.length === 0) return;
    this.typeAhead?.putBack(back.join(" "));
    this.options.view.note(pc.yellow(`${back.length} message(s) not taken by the agent yet are back in the input line: Enter sends them again.`));
  }

  /**
   * Drops the messages the agent has not taken yet — a queued one leaves the session's queue, a
   * steered one its history — and returns their texts. Before a stop or an exit: nothing is left to
   * run later that the user did not see run.
   */
  dropWaiting(): string[] {
    const dropped = this.waiting.takeAll();
    for (const message of dropped) message.run.abort("taken back by the user");
    return dropped.map((message) => message.text);
  }
}

/**
 * The turn's tokens. A turn stopped mid-answer often has no usage from the provider (it comes with
 * the end of a step): then the output is estimated from what streamed (about four characters a token).
 */
export function usageLine(tokens: { input: number; output: number }, stopped: boolean, streamedChars: number): string {
  const reported = `${tokens.input} in / ${tokens.output} out`;
  if (!stopped || streamedChars === 0) return reported;
  const estimate = Math.ceil(streamedChars / 4);
  if (tokens.input === 0 && tokens.output === 0) return `input not reported / ~${estimate} out (estimated: stopped before the model reported its usage)`;
  return `${reported} (the stopped step's usage was not reported: ~${estimate} out streamed in all, estimated)`;
}
