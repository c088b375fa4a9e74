import type { LanguageModelV4CallOptions, LanguageModelV4FunctionTool, LanguageModelV4Message, LanguageModelV4Prompt, SharedV4ProviderOptions } from "@ai-sdk/provider";
import type { BreakpointCarrier } from "./cache-scheme.js";

/** The most breakpoints Anthropic takes in one request. */
export const MAX_BREAKPOINTS = 4;

/** Where breakpoints go in one request, and the smallest prefix worth one. */
export interface BreakpointPlan {
  carrier: BreakpointCarrier;
  /** Anthropic caches no prefix shorter than this many tokens (per model: 1,024 for most). */
  minTokens: number;
}

/**
 * The request with cache breakpoints placed, at most {@link MAX_BREAKPOINTS}, each where its prefix
 * (tools, then system, then messages) is at least `plan.minTokens` long — a shorter one would be
 * ignored by the provider, or refused:
 * 1. the newest message, so this request's whole prompt is written for the next to read;
 * 2. the stable system prompt (the system message before the last one: the last is the volatile
 *    environment; a lone system message is stable), which holds across turns;
 * 3. where the previous request ended (the last user or tool message before the newest assistant
 *    message), so that what the previous request wrote is read even when the step added more
 *    blocks than the provider looks back over (20);
 * 4. the last tool definition.
 * Marked messages and tools are copies: the request's objects are shared with the turn's remembered
 * prompt (see `PromptPrefix`) and must stay as they were. A request that already has a breakpoint
 * from the host (request-level `anthropic.cacheControl`, Anthropic's automatic caching) is left as is.
 */
export function placeBreakpoints(params: LanguageModelV4CallOptions, plan: BreakpointPlan): LanguageModelV4CallOptions {
  if (params.providerOptions?.["anthropic"]?.["cacheControl"] !== undefined) return params;
  const prompt = params.prompt;
  const systemCount = leadingSystem(prompt);
  const candidates = breakpointCandidates(prompt, systemCount);
  const tools = plan.carrier.tools ? params.tools : undefined;
  const lastTool = tools?.length ? tools.length - 1 : -1;
  const markTool = lastTool >= 0 && tools![lastTool]!.type === "function";
  // Positions in prompt order: -1 is the tool definitions (before the system prompt).
  const chosen = [...candidates, ...(markTool ? [-1] : [])].slice(0, MAX_BREAKPOINTS);
  const worth = firstWorthCaching(params, prompt, plan.minTokens);
  const marks = chosen.filter((position) => worth !== undefined && position >= worth);
  if (marks.length === 0) return params;
  const marked: LanguageModelV4Message[] = prompt.slice();
  for (const index of marks) if (index >= 0) marked[index] = markMessage(prompt[index]!, plan.carrier);
  const out: LanguageModelV4CallOptions = { ...params, prompt: marked };
  if (marks.includes(-1)) {
    const copy = tools!.slice();
    const tool = copy[lastTool] as LanguageModelV4FunctionTool;
    copy[lastTool] = { ...tool, providerOptions: merged(tool.providerOptions, plan.carrier.message) };
    out.tools = copy;
  }
  return out;
}

/** Message positions to mark, most valuable first: newest, stable system, previous request's end. */
function breakpointCandidates(prompt: LanguageModelV4Prompt, systemCount: number): number[] {
  const out: number[] = [];
  const last = prompt.length - 1;
  if (last >= systemCount) out.push(last);
  if (systemCount > 0) out.push(systemCount >= 2 ? systemCount - 2 : 0);
  let assistant = last;
  while (assistant >= systemCount && prompt[assistant]!.role !== "assistant") assistant--;
  let previous = assistant - 1;
  while (previous >= systemCount && prompt[previous]!.role === "assistant") previous--;
  if (assistant < systemCount) previous = last - 1;
  if (previous >= systemCount && previous !== last) out.push(previous);
  return out;
}

function leadingSystem(prompt: LanguageModelV4Prompt): number {
  let count = 0;
  while (count < prompt.length && prompt[count]!.role === "system") count++;
  return count;
}

/**
 * The first prompt position whose prefix reaches `minTokens` (-1: the tool definitions alone do),
 * undefined when the whole request is shorter. Sizes are estimated at 4 characters a token and
 * kept per object, and the count stops at the threshold: a long history costs nothing more.
 */
function firstWorthCaching(params: LanguageModelV4CallOptions, prompt: LanguageModelV4Prompt, minTokens: number): number | undefined {
  const minChars = minTokens * 4;
  let chars = 0;
  for (const tool of params.tools ?? []) chars += sizeOf(tool);
  if (chars >= minChars) return -1;
  for (let i = 0; i < prompt.length; i++) {
    chars += sizeOf(prompt[i]!);
    if (chars >= minChars) return i;
  }
  return undefined;
}

const sizes = new WeakMap<object, number>();

/** The serialised length of a message or tool definition, measured once per object. */
function sizeOf(value: object): number {
  let size = sizes.get(value);
  if (size === undefined) {
    size = JSON.stringify(value, (_key, inner: unknown) => (inner instanceof Uint8Array ? `[${inner.byteLength} bytes]` : inner)).length;
    sizes.set(value, size);
  }
  return size;
}

/** A copy of `message` carrying the breakpoint (on itself, and on its last part where the carrier asks). */
function markMessage(message: LanguageModelV4Message, carrier: BreakpointCarrier): LanguageModelV4Message {
  const copy = { ...message, providerOptions: merged(message.providerOptions, carrier.message) } as LanguageModelV4Message;
  if (carrier.part && Array.isArray(copy.content) && copy.content.length > 0) {
    const content = copy.content.slice() as Array<{ providerOptions?: SharedV4ProviderOptions }>;
    const last = content.length - 1;
    content[last] = { ...content[last]!, providerOptions: merged(content[last]!.providerOptions, carrier.part) };
    (copy as { content: unknown }).content = content;
  }
  return copy;
}

/** `existing` with the breakpoint's options added under each provider key; what was already set there wins. */
function merged(existing: SharedV4ProviderOptions | undefined, add: Record<string, Record<string, unknown>> | undefined): SharedV4ProviderOptions {
  const out: Record<string, Record<string, unknown>> = { ...(existing as Record<string, Record<string, unknown>> | undefined) };
  for (const [key, value] of Object.entries(add ?? {})) out[key] = { ...value, ...out[key] };
  return out as SharedV4ProviderOptions;
}
