// Thresholds of the fuzzy edit matchers, chosen on the edit-accuracy corpus
// (src/replace/corpus/*.json, run by corpus.test.ts). Every value is the loosest one at which the
// corpus still has no wrong replacement: the "trap" cases (a search that resembles two blocks, or a
// block whose middle has really changed) must be refused, the "typo" cases must still apply.
// OpenCode accepts any single anchor-matched block (similarity threshold 0.0); these do not.

/**
 * block-anchored: first and last lines match (trimmed); the middle's non-blank lines are compared one
 * for one (blank lines are ignored, so a missing or extra blank line does not count). The average of
 * the per-line similarities must reach this. 0.85 accepts a typo or two per line and refuses a line
 * that was rewritten (corpus: "block-anchored typo" passes at ≈0.95, "stale middle" traps score 0.6-0.8).
 */
export const BLOCK_MIN_AVERAGE = 0.85;
/** block-anchored: and no single middle line may be less alike than this (a rewritten line scores < 0.6). */
export const BLOCK_MIN_LINE = 0.7;
/** block-anchored: the candidate may span this many more or fewer lines than the search (blank lines only). */
export const BLOCK_MAX_BLANK_DRIFT = 3;

/**
 * context-aware: same line count, first and last lines match (trimmed); at least this share of the
 * middle lines must match exactly (trimmed). OpenCode uses 0.5 with no other check.
 */
export const CONTEXT_MIN_EXACT_SHARE = 0.5;
/** context-aware: each middle line that does not match exactly must still be at least this alike… */
export const CONTEXT_MIN_LINE = 0.6;
/** context-aware: …and the middle lines' average similarity must reach this. */
export const CONTEXT_MIN_AVERAGE = 0.8;
