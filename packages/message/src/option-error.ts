/**
 * Thrown when a token or turn count given to a compaction helper is negative or not a number: such
 * a value has no sensible meaning, and silently treating it as zero would hide a caller's bug.
 */
export class InvalidCountError extends Error {
  override readonly name = "InvalidCountError";
  /** The option that was wrong, e.g. `"protectTokens"`. */
  readonly option: string;
  /** The value it was given. */
  readonly value: number;

  // No parameter properties: other packages' child-process tests load this source with Node's type stripping.
  constructor(option: string, value: number) {
    super(`${option} must be a non-negative number, got ${value}.`);
    this.option = option;
    this.value = value;
  }
}

/** Returns `value` when it is a non-negative number (Infinity allowed); throws {@link InvalidCountError} otherwise. */
export function nonNegativeCount(option: string, value: number): number {
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) throw new InvalidCountError(option, value);
  return value;
}
