/**
 * Testing kit for Lathe agents (and any AI SDK code): scripted mock models ({@link mockModel}),
 * record/replay cassettes ({@link recordModel}, {@link replayModel}, {@link cassetteFile}) and
 * assertion helpers over a run ({@link toolCalls}, {@link finalText}, {@link filesChanged}).
 *
 * @module @lathe/mock
 */
export { mockModel, MockScriptExhaustedError, type MockModel, type MockModelOptions } from "./mock-model.js";
export type { MockTurn, MockTurnInput, MockToolCall, MockUsage } from "./script.js";
export { recordModel, type RecordOptions } from "./record-model.js";
export { replayModel, type ReplayModel, type ReplayOptions } from "./replay-model.js";
export type { RecordableModel } from "./model-versions.js";
export {
  cassetteFile,
  memoryCassette,
  parseCassette,
  InvalidCassetteError,
  CASSETTE_VERSION,
  CassetteData,
  Interaction,
  RecordedResponse,
  ModelSpecification,
  type Cassette,
  type MemoryCassette,
} from "./cassette.js";
export { CassetteMismatchError, CassetteNotFoundError } from "./errors.js";
export { normalizeRequest, requestKey, defaultReplacements, type NormalizeOptions, type Replacement } from "./normalize-request.js";
export { printRequest, type RequestDiff } from "./request-diff.js";
export type { EncodedError } from "./json-codec.js";
export {
  collectRun,
  toolCalls,
  finalText,
  filesChanged,
  type CollectedRun,
  type RunRecord,
  type RunEventLike,
  type ToolCallRecord,
  type FilesChangedOptions,
} from "./assertions.js";
export {
  AnthropicCacheSimulator,
  billedInput,
  ANTHROPIC_CACHE_MULTIPLIERS,
  type CacheSimulatorOptions,
  type CacheSimUsage,
} from "./anthropic-cache.js";
