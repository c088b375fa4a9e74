import type { LanguageModelUsage } from "ai";
import type { ModelCallPart } from "./model-call.js";
import type { ReasoningPart, TextPart, ToolPart } from "@lathe/message";
import type { Tool } from "@lathe/tools";
import type { ToolCall } from "./tool-runner.js";
import { errorText } from "./tool-runner.js";
import { causes } from "../context/provider-errors.js";
import type { TurnRecorder } from "./turn-recorder.js";

/** What one streamed step produced. */
export interface StepStream {
  /** The AI SDK's finish reason; undefined when the stream ended without one. */
  finishReason: string | undefined;
  usage: LanguageModelUsage | undefined;
  /** Valid calls, in the order the model made them, ready to run. */
  calls: ToolCall[];
  /** Calls the model made that could not run (unknown tool, bad input); each already has its error result. */
  invalidCalls: number;
  /** The error that ended the stream, if one did. */
  error?: unknown;
}

type ProviderMetadata = Record<string, Record<string, unknown>> | undefined;

/**
 * Turns one step's stream into parts: text and reasoning grow with each delta, tool calls go from
 * pending (input streaming) to running (valid, waiting for the runner) or error (invalid). Every
 * switch has a default branch: the AI SDK adds part types in minor releases.
 */
export async function processStepStream(
  /** The parts of one model call (see `model-call.ts`). */
  stream: AsyncIterable<ModelCallPart>,
  recorder: TurnRecorder,
  tools: ReadonlyMap<string, Tool>,
  /** The workspace snapshot taken as the step began, recorded on its step-start part. */
  snapshot?: string,
): Promise<StepStream> {
  const out: StepStream = { finishReason: undefined, usage: undefined, calls: [], invalidCalls: 0 };
  const texts = new Map<string, TextPart>();
  const reasonings = new Map<string, ReasoningPart>();
  // The part each of the model's call ids streams into now; ids whose call is complete (a later
  // start or call under the same id is a new call, with a part of its own).
  const toolParts = new Map<string, ToolPart>();
  const called = new Set<string>();

  const toolPart = (callID: string, toolName: string): ToolPart => {
    let part = toolParts.get(callID);
    if (!part || called.has(callID)) {
      called.delete(callID);
      part = recorder.add<ToolPart>({ type: "tool", callID: distinctCallID(recorder, callID), tool: toolName, state: { status: "pending", input: {}, raw: "" } });
      toolParts.set(callID, part);
    }
    return part;
  };

  try {
    await consume();
  } catch (error) {
    // The model call turns its own failures into error parts; whatever else throws ends the step
    // like an error part would.
    out.error = error;
  }
  closeOpenParts(recorder, texts, reasonings);
  return out;

  async function consume(): Promise<void> {
    for await (const chunk of stream) {
      switch (chunk.type) {
        case "model-call-start":
          recorder.add({ type: "step-start", ...(snapshot !== undefined ? { snapshot } : {}) });
          break;
        case "text-start":
          texts.set(chunk.id, recorder.add<TextPart>({ type: "text", text: "", time: { start: Date.now() } }));
          break;
        case "text-delta": {
          const part = texts.get(chunk.id) ?? recorder.add<TextPart>({ type: "text", text: "", time: { start: Date.now() } });
          texts.set(chunk.id, part);
          part.text += chunk.text;
          recorder.changed(part, chunk.text);
          break;
        }
        case "text-end": {
          const part = texts.get(chunk.id);
          if (!part) break;
          part.time = { start: part.time?.start ?? Date.now(), end: Date.now() };
          if (chunk.providerMetadata) part.providerMetadata = chunk.providerMetadata as ProviderMetadata;
          recorder.changed(part);
          texts.delete(chunk.id);
          break;
        }
        case "reasoning-start":
          reasonings.set(chunk.id, recorder.add<ReasoningPart>({ type: "reasoning", text: "", time: { start: Date.now() } }));
          break;
        case "reasoning-delta": {
          const part = reasonings.get(chunk.id) ?? recorder.add<ReasoningPart>({ type: "reasoning", text: "", time: { start: Date.now() } });
          reasonings.set(chunk.id, part);
          part.text += chunk.text;
          if (chunk.providerMetadata) part.providerMetadata = chunk.providerMetadata as ProviderMetadata;
          recorder.changed(part, chunk.text);
          break;
        }
        case "reasoning-end": {
          const part = reasonings.get(chunk.id);
          if (!part) break;
          part.time = { ...part.time, end: Date.now() };
          if (chunk.providerMetadata) part.providerMetadata = chunk.providerMetadata as ProviderMetadata;
          recorder.changed(part);
          reasonings.delete(chunk.id);
          break;
        }
        case "tool-input-start":
          // One call has one start: a second start under an id is another call, even before the first completes.
          if (toolParts.has(chunk.id)) called.add(chunk.id);
          toolPart(chunk.id, chunk.toolName);
          break;
        case "tool-input-delta": {
          const part = toolParts.get(chunk.id);
          if (!part || part.state.status !== "pending") break;
          part.state = { ...part.state, raw: part.state.raw + chunk.delta };
          recorder.changed(part, chunk.delta);
          break;
        }
        case "tool-call": {
          const part = toolPart(chunk.toolCallId, chunk.toolName);
          called.add(chunk.toolCallId);
          if (chunk.providerMetadata) part.providerMetadata = chunk.providerMetadata as ProviderMetadata;
          const parsed = asRecord(chunk.input);
          // Input nested deeper than any schema needs cannot be stored or copied (recursion limits):
          // the call is answered as invalid, and what is kept of it is nothing.
          const tooDeep = exceedsDepth(parsed, MAX_INPUT_DEPTH);
          const input = tooDeep ? {} : parsed;
          const tool = tools.get(chunk.toolName);
          if (chunk.invalid || !tool || tooDeep) {
            out.invalidCalls++;
            const now = Date.now();
            const error = tooDeep
              ? `Invalid input for tool "${chunk.toolName}": it is nested more than ${MAX_INPUT_DEPTH} levels deep. Send a flatter input.`
              : invalidCallMessage(chunk.toolName, chunk.error, tools);
            part.state = { status: "error", input, error, time: { start: now, end: now } };
            recorder.changed(part);
          } else {
            out.calls.push({ part, tool, input });
          }
          break;
        }
        case "model-call-end":
          out.finishReason = chunk.finishReason;
          out.usage = chunk.usage;
          break;
        case "error":
          out.error = chunk.error;
          break;
        case "abort":
        case "tool-input-end":
          break;
        default:
          // Sources, files, custom and raw chunks, and part types added by later AI SDK releases.
          break;
      }
    }
  }
}

/**
 * The call id a new tool part is stored under: the model's own, unless a tool part of this message
 * has it already (the model repeated an id, in this step or an earlier one) — then the id with a
 * numbered suffix, so each call keeps its own part, result and approval. The suffix uses only
 * characters providers accept in call ids.
 */
function distinctCallID(recorder: TurnRecorder, callID: string): string {
  if (!recorder.hasCall(callID)) return callID;
  for (let n = 2; ; n++) if (!recorder.hasCall(`${callID}_${n}`)) return `${callID}_${n}`;
}

function closeOpenParts(recorder: TurnRecorder, texts: Map<string, TextPart>, reasonings: Map<string, ReasoningPart>): void {
  const now = Date.now();
  for (const part of texts.values()) {
    part.time = { start: part.time?.start ?? now, end: now };
    recorder.changed(part);
  }
  for (const part of reasonings.values()) {
    part.time = { ...part.time, end: now };
    recorder.changed(part);
  }
}

/** How deep a tool input may nest; real schemas need a handful of levels. */
export const MAX_INPUT_DEPTH = 64;

/** Whether `value` nests objects or arrays more than `limit` levels deep (walked without recursion). */
export function exceedsDepth(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

function asRecord(input: unknown): Record<string, unknown> {
  if (input && typeof input === "object" && !Array.isArray(input)) return input as Record<string, unknown>;
  if (typeof input === "string") {
    try {
      const parsed: unknown = JSON.parse(input);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // Not JSON: keep the raw text so the model sees what it sent.
    }
    return { raw: input };
  }
  return input === undefined ? {} : { value: input };
}

function invalidCallMessage(toolName: string, error: unknown, tools: ReadonlyMap<string, Tool>): string {
  if (!tools.has(toolName)) {
    const available = [...tools.keys()].join(", ") || "none";
    return `There is no tool named "${toolName}". Available tools: ${available}.`;
  }
  return `Invalid input for tool "${toolName}": ${inputProblem(error)}. Fix the input and call the tool again.`;
}

/**
 * What is wrong with a tool input, in one sentence naming the fields: the schema's own issues
 * (`path: expected string, received undefined`) rather than the SDK's wrappers around a JSON dump.
 */
export function inputProblem(error: unknown): string {
  const chain = causes(error);
  const issues = chain
    .map((item) => (item && typeof item === "object" ? (item as { issues?: unknown }).issues : undefined))
    .find((found): found is { path?: unknown[]; message?: unknown }[] => Array.isArray(found) && found.length > 0);
  if (issues) {
    return issues
      .slice(0, 5)
      .map((issue) => {
        const path = Array.isArray(issue.path) && issue.path.length > 0 ? issue.path.map(String).join(".") : "the input";
        return `${path}: ${String(issue.message ?? "invalid").replace(/^Invalid input: /, "")}`;
      })
      .concat(issues.length > 5 ? [`and ${issues.length - 5} more`] : [])
      .join("; ");
  }
  const innermost = chain.at(-1);
  if (innermost instanceof SyntaxError) return `it is not valid JSON (${innermost.message})`;
  return errorText(innermost ?? error).replace(/\s+/g, " ").slice(0, 500);
}
