// Picks the model from the environment, the way a user's shell is usually set up. Returns undefined
// when nothing is configured, and the CLI falls back to the offline demo model.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { AgentOptions } from "@lathe/core";

/** A model chosen from the environment, with a label for the banner. */
export interface EnvModel {
  model: AgentOptions["model"];
  label: string;
}

/**
 * - `LATHE_BASE_URL` (+ `LATHE_MODEL`, optional `LATHE_API_KEY`): any OpenAI-compatible server
 *   (Ollama, vLLM, LM Studio, a gateway).
 * - `ANTHROPIC_API_KEY` (+ optional `LATHE_MODEL`, default claude-sonnet-4-5).
 * - `OPENAI_API_KEY` (+ optional `LATHE_MODEL`, default gpt-5).
 */
export function modelFromEnv(env: NodeJS.ProcessEnv = process.env): EnvModel | undefined {
  const modelId = env.LATHE_MODEL?.trim() || undefined;
  if (env.LATHE_BASE_URL) {
    const id = modelId ?? "default";
    const provider = createOpenAICompatible({ name: "openai-compatible", baseURL: env.LATHE_BASE_URL, apiKey: env.LATHE_API_KEY, includeUsage: true });
    return { model: provider(id), label: `${id} at ${env.LATHE_BASE_URL}` };
  }
  if (env.ANTHROPIC_API_KEY) {
    const id = modelId ?? "claude-sonnet-4-5";
    return { model: createAnthropic({ apiKey: env.ANTHROPIC_API_KEY })(id), label: `anthropic/${id}` };
  }
  if (env.OPENAI_API_KEY) {
    const id = modelId ?? "gpt-5";
    return { model: createOpenAI({ apiKey: env.OPENAI_API_KEY })(id), label: `openai/${id}` };
  }
  return undefined;
}
