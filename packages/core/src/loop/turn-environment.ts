import { modelView, type MessageWithParts } from "@lathe/message";
import { environmentSection } from "../agents/system-prompt.js";
import type { AgentRuntime } from "./runtime.js";

/**
 * The environment a new prompt carries (its user message's `environment`): the environment as it
 * is now — date, workspace listing, diagnostics; see `environmentSection` — when it differs from
 * the last one the model can see in `history`, else none. It travels with the prompt, stored with
 * it, rather than in the system prompt: an environment already sent never changes, so a new file or
 * a new day adds a few tokens at the end instead of rewriting the prompt's cached prefix from the
 * system prompt on.
 */
export function turnEnvironment(rt: AgentRuntime, history: MessageWithParts[], now = new Date()): string | undefined {
  const text = environmentSection(rt.cwd, now, rt.options.lsp?.prompt());
  return lastEnvironment(history) === text ? undefined : text;
}

/** The last environment in the model's view of `history`. */
function lastEnvironment(history: MessageWithParts[]): string | undefined {
  const view = modelView(history);
  for (let i = view.length - 1; i >= 0; i--) {
    const info = view[i]!.info;
    if (info.role === "user" && info.environment !== undefined) return info.environment;
  }
  return undefined;
}
