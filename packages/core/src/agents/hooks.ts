import type { ModelRef, Part, UserMessage } from "@lathe/message";

/** One hook or several, run in order. */
export type HookList<F> = F | F[];

/** Settings of a model request a `chat.params` hook may change. */
export interface ChatParams {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  providerOptions: Record<string, Record<string, unknown>>;
  headers: Record<string, string>;
}

/** Who a hook runs for. */
export interface HookContext {
  sessionID: string;
  /** The agent answering. */
  agent: string;
}

/** The signature of each hook point: facts in `input`, an object to change in place in `output`. */
export interface HookSignatures {
  /** Change the user message and its parts before they are stored. */
  "chat.message": (input: HookContext, output: { message: UserMessage; parts: Part[] }) => unknown;
  /** Change the settings of each model request. */
  "chat.params": (input: HookContext & { model: ModelRef }, output: ChatParams) => unknown;
  /** Change the system prompt of each model request (its sections, in order). */
  "chat.system": (input: HookContext & { model: ModelRef }, output: { system: string[] }) => unknown;
  /** Change a tool call's arguments, or block it: set `block` to a reason the model reads as the call's result. */
  "tool.execute.before": (
    input: HookContext & { tool: string; callID: string },
    output: { args: Record<string, unknown>; block?: string },
  ) => unknown;
  /** Change a tool's result before the model sees it. */
  "tool.execute.after": (
    input: HookContext & { tool: string; callID: string; args: Record<string, unknown> },
    output: { title: string; output: string; metadata: Record<string, unknown> },
  ) => unknown;
  /** Change a finished text part of the model's answer before it is stored for good. */
  "text.complete": (input: HookContext & { messageID: string; partID: string }, output: { text: string }) => unknown;
}

/**
 * Typed hooks into the loop, one list per point of {@link HookSignatures}. Each hook receives facts
 * (`input`) and an object it may change in place (`output`); several hooks of one point run in
 * order, each seeing the changes of those before it. A hook that throws ends the turn with an error
 * naming the hook.
 */
export type Hooks = { [N in keyof HookSignatures]?: HookList<HookSignatures[N]> };

/** The name of a hook point. */
export type HookName = keyof Hooks;

/** A hook threw: the turn ends with this error. */
export class HookError extends Error {
  override readonly name = "HookError";
  constructor(
    readonly hook: HookName,
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super(`The "${hook}" hook #${index + 1} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Runs the hooks of one point in order; a throwing hook becomes a {@link HookError}. */
export async function runHooks<N extends HookName>(
  hooks: Hooks | undefined,
  name: N,
  input: Parameters<HookSignatures[N]>[0],
  output: Parameters<HookSignatures[N]>[1],
): Promise<void> {
  const registered = hooks?.[name];
  if (!registered) return;
  const list = (Array.isArray(registered) ? registered : [registered]) as Array<(i: unknown, o: unknown) => unknown>;
  for (let i = 0; i < list.length; i++) {
    try {
      await list[i]!(input, output);
    } catch (error) {
      throw new HookError(name, i, error);
    }
  }
}
