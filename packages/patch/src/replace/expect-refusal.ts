// Test helper: runs an edit that must be refused and returns the ReplaceError.
import { expect } from "vitest";
import { ReplaceError } from "../errors.js";

/** The ReplaceError `fn` throws (fails the test when it throws nothing or something else). */
export function refusal(fn: () => unknown): ReplaceError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ReplaceError);
    return error as ReplaceError;
  }
  throw new Error("expected a ReplaceError");
}
