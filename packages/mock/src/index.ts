/**
 * Scripted mock models for testing Lathe agents (and any AI SDK code).
 *
 * @module @lathe/mock
 */
export { mockModel, MockScriptExhaustedError, type MockModel, type MockModelOptions } from "./mock-model.js";
export type { MockTurn, MockTurnInput, MockToolCall, MockUsage } from "./script.js";
