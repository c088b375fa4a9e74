/** Lathe's base instructions, shared by every model. */
export const BASE_PROMPT = `You are a coding agent working in the user's workspace through tools.
- Read files before you change them, and keep changes minimal and focused on the request.
- Prefer editing existing files to creating new ones. Do not commit unless asked.
- When a tool fails, read its error, fix the cause and try again instead of repeating the same call.
- When you are done, tell the user briefly what you changed and what is left.`;

/** What the model is told on the last step a step limit allows. */
export const MAX_STEPS_PROMPT = `You have reached the maximum number of steps for this task. Tools are disabled now.
Answer in text only: summarise what you did, what remains to be done, and what you recommend next.`;

/** Inputs of {@link buildSystemPrompt}. */
export interface SystemPromptInput {
  cwd: string;
  /** Host instructions given to the agent. */
  instructions: string[];
  /** Extra instructions given with one prompt. */
  system?: string | undefined;
  now?: Date;
}

/**
 * Builds the system prompt: stable parts first (base, host instructions) so providers can cache them,
 * then the environment and per-prompt instructions.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const environment = [
    "<environment>",
    `Working directory: ${input.cwd}`,
    `Platform: ${process.platform}`,
    `Date: ${(input.now ?? new Date()).toDateString()}`,
    "</environment>",
  ].join("\n");
  return [BASE_PROMPT, ...input.instructions, environment, input.system]
    .filter((s): s is string => typeof s === "string" && s.trim() !== "")
    .join("\n\n");
}
