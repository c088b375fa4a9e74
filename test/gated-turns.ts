// Scripted model turns the test holds back: the turn's request waits at the gate until the test
// opens it, so a test can act at a known moment of a running turn (while step 2 of 3 is in flight).
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { MockTurn, MockTurnInput } from "@lathe/mock";

/** A turn of a scripted model that waits for the test. */
export interface Gate {
  /** The scripted turn: it answers `turn` once the gate opens. */
  readonly turn: MockTurnInput;
  /** Resolves when the model's request reached the gate. */
  readonly reached: Promise<void>;
  /** Lets the request go on (a request aborted first fails with the abort's reason). */
  open(): void;
}

export function gate(turn: MockTurn): Gate {
  let open!: () => void;
  let reach!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return {
    turn: async (call) => {
      reach();
      // A turn stopped meanwhile stops its request, as a provider's would.
      await new Promise<void>((resolve, reject) => {
        const signal = call.abortSignal;
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
        void opened.then(resolve);
      });
      return turn;
    },
    reached,
    open,
  };
}

/**
 * What the user typed in the newest user message of a model request (what the model reads last from
 * the user): its first text part — the first prompt of a session also carries an environment block.
 */
export function lastUserText(call: LanguageModelV4CallOptions): string {
  const user = call.prompt.findLast((message) => message.role === "user");
  if (!user || typeof user.content === "string") return "";
  return user.content.find((part) => part.type === "text")?.text ?? "";
}
