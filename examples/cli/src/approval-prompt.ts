// The approval prompt: what the agent wants to do (with the diff of an edit), then once / always /
// reject / reject with feedback. Prompts are asked one at a time even when several calls wait.
import input from "@inquirer/input";
import select from "@inquirer/select";
import type { PermissionReply, PermissionRequest } from "@lathe/core";
import pc from "picocolors";
import { colorDiff } from "./diff-view.ts";

/** The user pressed Ctrl+C at a prompt. */
export class PromptInterruptedError extends Error {
  override readonly name = "PromptInterruptedError";
}

/** True for the errors Inquirer throws when a prompt is closed by Ctrl+C or by its abort signal. */
export const isPromptClosed = (error: unknown) =>
  error instanceof Error && (error.name === "ExitPromptError" || error.name === "AbortPromptError");

type Choice = "once" | "always" | "reject" | "feedback";

const ANSWERS: Record<Choice, string> = {
  once: `${pc.green("✔")} allowed once`,
  always: `${pc.green("✔")} allowed always (this session)`,
  reject: `${pc.red("✖")} rejected`,
  feedback: `${pc.red("✖")} rejected with feedback:`,
};

/** Describes a request: the permission, what it touches, and the diff of an edit. */
export function describeRequest(request: PermissionRequest): string {
  const what = request.patterns.join(", ");
  const lines = [`${pc.yellow("?")} ${pc.bold(`Allow ${request.permission}`)} ${what}`];
  const diff = request.metadata.diff;
  if (typeof diff === "string" && diff) lines.push(colorDiff(diff));
  return lines.join("\n");
}

export class ApprovalPrompt {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly out: NodeJS.WriteStream;

  constructor(out: NodeJS.WriteStream) {
    this.out = out;
  }

  /** Asks the user; rejects with {@link PromptInterruptedError} on Ctrl+C. */
  ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionReply> {
    const next = this.queue.then(() => this.askNow(request, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async askNow(request: PermissionRequest, signal: AbortSignal): Promise<PermissionReply> {
    if (signal.aborted) return "reject";
    this.out.write(`${describeRequest(request)}\n`);
    const always = request.always.length > 0 ? request.always.join(", ") : request.patterns.join(", ");
    // The menus are cleared when they close (answered, Ctrl+C, or the turn stopped), so none is left
    // drawn; the answer is written as one line instead.
    const context = { signal, clearPromptOnDone: true };
    try {
      const choice = await select<Choice>(
        {
          message: "Your answer",
          choices: [
            { name: "Allow once", value: "once" },
            { name: `Allow always ${pc.dim(`(${always}, for this session)`)}`, value: "always" },
            { name: "Reject", value: "reject", description: "Stop the turn" },
            { name: "Reject with feedback…", value: "feedback", description: "Tell the agent what to do instead" },
          ],
        },
        context,
      );
      if (choice !== "feedback") {
        this.out.write(`${ANSWERS[choice]}\n`);
        return choice;
      }
      const feedback = await input({ message: "What should the agent do instead?", required: true }, context);
      this.out.write(`${ANSWERS.feedback} ${pc.dim(feedback)}\n`);
      return { reject: feedback };
    } catch (error) {
      if (signal.aborted) {
        this.out.write(`${pc.yellow("⏹")} not answered: the turn stopped\n`);
        return "reject";
      }
      if (isPromptClosed(error)) {
        this.out.write(`${pc.yellow("⏹")} interrupted\n`);
        throw new PromptInterruptedError("interrupted at the approval prompt");
      }
      throw error;
    }
  }
}
