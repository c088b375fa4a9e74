import { wrapLanguageModel, type LanguageModel, type ModelMessage } from "ai";
import type { LanguageModelV4Message, LanguageModelV4Prompt } from "@ai-sdk/provider";

/**
 * The provider-level prompt of a turn's last request, kept so that the next request converts only
 * the messages added since.
 *
 * The AI SDK turns every request's whole `ModelMessage[]` history into the provider's prompt anew
 * (part by part, with a scan for assets to download): work that grows with the session, paid on
 * every step. A turn's history only grows between its steps, and the message cache hands back the
 * very same objects for messages that did not change; so when the history still begins with every
 * message the last request sent (by identity), only the rest goes through the SDK's conversion, and
 * a wrapper around the model puts the remembered prompt back in front of it before the provider
 * sees the request. Anything else — a message changed, removed or rewritten, another model — falls
 * back to converting the whole history, so the prompt the provider gets is always the one the SDK
 * would have built.
 *
 * The remembered messages are handed to the provider again on each request: a model middleware
 * must not edit a request's prompt in place (the AI SDK's own middleware returns new objects).
 */
export class PromptPrefix {
  private sent: readonly ModelMessage[] = [];
  private converted: readonly LanguageModelV4Message[] = [];
  private model: LanguageModel | undefined;

  /** The model and messages to send for `messages`: the whole history, or its new end behind a model that restores the rest. */
  prepare(model: LanguageModel, messages: ModelMessage[]): { model: LanguageModel; messages: ModelMessage[] } {
    // A model named by a string is resolved by the SDK's global provider on each request: left alone.
    if (typeof model === "string") return { model, messages };
    const reused = this.model === model ? this.reusable(messages) : 0;
    const prefix = this.converted;
    // A copy: the caller's array may grow after the call (the message objects themselves may not change).
    const sent = messages.slice();
    const wrapped = wrapLanguageModel({
      model,
      middleware: {
        specificationVersion: "v4",
        transformParams: async ({ params }) => {
          const system = leadingSystemMessages(params.prompt);
          const prompt: LanguageModelV4Prompt =
            reused > 0 ? [...params.prompt.slice(0, system), ...prefix, ...params.prompt.slice(system)] : params.prompt;
          this.remember(model, sent, prompt.slice(system));
          return reused > 0 ? { ...params, prompt } : params;
        },
      },
    });
    return { model: wrapped, messages: reused > 0 ? messages.slice(reused) : messages };
  }

  private remember(model: LanguageModel, messages: readonly ModelMessage[], converted: readonly LanguageModelV4Message[]): void {
    this.model = model;
    this.sent = messages;
    this.converted = converted;
  }

  /**
   * How many leading messages of `messages` the remembered prompt stands for: all it was made from,
   * when `messages` begins with exactly those objects and goes on with a message that starts a new
   * provider message (the SDK merges consecutive tool messages into one), else none.
   */
  private reusable(messages: readonly ModelMessage[]): number {
    const count = this.sent.length;
    if (count === 0 || messages.length <= count) return 0;
    for (let i = 0; i < count; i++) if (messages[i] !== this.sent[i]) return 0;
    const next = messages[count]!.role;
    return next === "tool" || next === "system" ? 0 : count;
  }
}

function leadingSystemMessages(prompt: LanguageModelV4Prompt): number {
  let count = 0;
  while (count < prompt.length && prompt[count]!.role === "system") count++;
  return count;
}
