import type { LanguageModelV2, LanguageModelV3, LanguageModelV4 } from "@ai-sdk/provider";

/** An AI SDK language model object of any specification this package records and replays: v2, v3 or v4. */
export type RecordableModel = LanguageModelV2 | LanguageModelV3 | LanguageModelV4;

// The three specifications share the shape record/replay touches (doStream/doGenerate with a call
// object, a stream of plain part objects), so one loose view of it serves all of them.
/** @internal */
export interface LooseModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: unknown;
  doStream(call: LooseCall): PromiseLike<{ stream: ReadableStream<unknown> } & Record<string, unknown>>;
  doGenerate(call: LooseCall): PromiseLike<Record<string, unknown>>;
}

/** @internal */
export type LooseCall = Record<string, unknown> & { abortSignal?: AbortSignal };

/** @internal */
export const loose = (model: RecordableModel): LooseModel => model as unknown as LooseModel;
