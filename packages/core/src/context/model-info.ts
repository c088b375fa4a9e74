import type { LanguageModel } from "ai";
import type { ModelRef } from "@lathe/message";

/**
 * The provider and model id of a model. AI SDK providers name themselves `openai.chat`,
 * `anthropic.messages`…; the provider id is the part before the first dot. A model given as a string
 * (an AI Gateway id such as `openai/gpt-5`) is split at the slash.
 */
export function modelRef(model: LanguageModel): ModelRef {
  if (typeof model === "string") {
    const slash = model.indexOf("/");
    return slash > 0 ? { providerID: model.slice(0, slash), modelID: model.slice(slash + 1) } : { providerID: "gateway", modelID: model };
  }
  const provider = model.provider;
  const dot = provider.indexOf(".");
  return { providerID: dot > 0 ? provider.slice(0, dot) : provider, modelID: model.modelId };
}
