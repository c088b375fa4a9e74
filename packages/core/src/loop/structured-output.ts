import { asSchema, Output, type FlexibleSchema, type OutputInterface } from "ai";
import type { TextPart } from "@lathe/message";
import type { OutputValidationError } from "../errors.js";
import type { TurnRecorder } from "./turn-recorder.js";

// A prompt's structured output (`PromptOptions.output`). Every step of the turn asks the provider
// for the schema through the AI SDK's `Output.object` (its JSON-schema response format, where the
// provider has one), and the system prompt states the schema too, so a provider without a response
// format still knows it. Tools stay available: the answer is the final step's text (the step with no
// tool calls), parsed and validated by the same `Output.object`. An answer that does not validate is
// taken out of the message and fed back to the model, a bounded number of times.

/** Default of {@link PromptOptions.outputRepairs}. */
export const DEFAULT_OUTPUT_REPAIRS = 2;

/** Added to the step limit's last request when an answer in the schema is owed. */
export const LAST_STEP_OUTPUT_NOTE = "Your answer must still be only the JSON value the system prompt's schema describes.";

/** The schema of a structured answer: a Zod schema, a Standard Schema or the AI SDK's `jsonSchema()`. */
export type OutputSchema<OUTPUT = unknown> = FlexibleSchema<OUTPUT>;

/** What the turn keeps of a prompt's output schema. */
export interface StructuredOutput {
  /** The AI SDK's output specification, passed to every step's model call (its response format). */
  readonly spec: OutputInterface<unknown, unknown, never>;
  /** The system prompt's paragraph stating the schema. */
  readonly instructions: string;
  /** Repairs still allowed. */
  repairsLeft: number;
  /** Answers that did not validate so far. */
  attempts: number;
  /** The feedback the next step's request ends with, after an answer that did not validate. */
  feedback: string | undefined;
}

/** Resolves a prompt's schema (its JSON schema may come asynchronously) into the turn's output state. */
export async function structuredOutput(schema: OutputSchema, repairs: number = DEFAULT_OUTPUT_REPAIRS): Promise<StructuredOutput> {
  const jsonSchema = await asSchema(schema).jsonSchema;
  return {
    spec: Output.object({ schema }) as OutputInterface<unknown, unknown, never>,
    instructions: `Your final answer (the message in which you call no tool) must be a single JSON value, and nothing else, that matches this JSON schema:
${JSON.stringify(jsonSchema)}
Use tools as usual before it; write no prose, no Markdown fence, around the JSON.`,
    repairsLeft: repairs,
    attempts: 0,
    feedback: undefined,
  };
}

/** The outcome of checking a final answer: its value, a repair to ask for, or the turn's error. */
export type OutputCheck = { kind: "valid"; value: unknown } | { kind: "repair" } | { kind: "failed"; error: OutputValidationError };

/**
 * Checks the text of the step that answered (`parts`, the parts it added) against the schema. A
 * valid answer is stored on the message (`info.output`). An invalid one is taken out of the message
 * and becomes the feedback of the next request while repairs are left; after that the turn fails
 * with an `OutputValidationError` whose data carries the last text, the reason and the attempts.
 */
export async function checkOutput(output: StructuredOutput, recorder: TurnRecorder, parts: readonly TextPart[], finishReason: string | undefined): Promise<OutputCheck> {
  const text = parts.map((p) => p.text).join("");
  const parsed = await parse(output, text, finishReason);
  if ("value" in parsed) {
    const value = parsed.value;
    recorder.message.output = value;
    recorder.messageChanged();
    output.feedback = undefined;
    return { kind: "valid", value };
  }
  const reason = parsed.reason;
  output.attempts++;
  if (output.repairsLeft > 0) {
    output.repairsLeft--;
    // The invalid answer is not the turn's answer: the model sees it again in the feedback only.
    recorder.remove([...parts]);
    output.feedback = repairPrompt(text, reason);
    return { kind: "repair" };
  }
  return {
    kind: "failed",
    error: {
      name: "OutputValidationError",
      message: `The final answer did not match the output schema after ${output.attempts} attempt${output.attempts === 1 ? "" : "s"}: ${reason}`,
      data: { text, reason, attempts: output.attempts },
    },
  };
}

/** The answer's value, or why `text` is not one (the AI SDK's parse or validation message). */
async function parse(output: StructuredOutput, text: string, finishReason: string | undefined): Promise<{ value: unknown } | { reason: string }> {
  try {
    return { value: await output.spec.parseCompleteOutput({ text }, parseContext(finishReason)) };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return { reason: `${error instanceof Error ? error.message : String(error)}${cause}` };
  }
}

function parseContext(finishReason: string | undefined): Parameters<StructuredOutput["spec"]["parseCompleteOutput"]>[1] {
  return {
    response: { id: "", timestamp: new Date(0), modelId: "" },
    usage: {} as never,
    finishReason: (finishReason ?? "stop") as never,
  };
}

function repairPrompt(text: string, reason: string): string {
  return `Your final answer did not match the required JSON schema, so it was not accepted.
Your answer was:
${text.length > 4000 ? `${text.slice(0, 4000)}…` : text}
The problem: ${reason}
Answer again with only the corrected JSON value.`;
}
