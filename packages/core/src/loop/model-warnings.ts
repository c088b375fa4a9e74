import type { LanguageModel, LogWarningsFunction } from "ai";

type Warning = Parameters<LogWarningsFunction>[0]["warnings"][number];

/**
 * Reports the warnings a provider returned for a request (a setting it ignored, a feature it does
 * not support) as `streamText` does: through the `AI_SDK_LOG_WARNINGS` global when it is a function,
 * not at all when it is `false`, else as a process warning (`AI SDK Warning (provider / model): …`).
 */
export function reportModelWarnings(warnings: readonly Warning[], model: LanguageModel): void {
  if (warnings.length === 0) return;
  const setting = (globalThis as { AI_SDK_LOG_WARNINGS?: LogWarningsFunction | false }).AI_SDK_LOG_WARNINGS;
  if (setting === false) return;
  const provider = typeof model === "string" ? undefined : model.provider;
  const modelId = typeof model === "string" ? model : model.modelId;
  if (typeof setting === "function") {
    setting({ warnings: [...warnings], ...(provider !== undefined ? { provider } : {}), model: modelId });
    return;
  }
  const prefix = `AI SDK Warning${provider !== undefined ? ` (${provider} / ${modelId})` : ""}:`;
  for (const warning of warnings) process.emitWarning(`${prefix} ${describe(warning)}`, { type: "Warning" });
}

function describe(warning: Warning): string {
  switch (warning.type) {
    case "unsupported":
      return `The feature "${warning.feature}" is not supported.${warning.details ? ` ${warning.details}` : ""}`;
    case "compatibility":
      return `The feature "${warning.feature}" is used in a compatibility mode.${warning.details ? ` ${warning.details}` : ""}`;
    case "other":
      return warning.message;
    default:
      return JSON.stringify(warning);
  }
}
