// Besides these thresholds, a fuzzy line match needs the same numbers, operators and punctuation
// (text/signature.ts): a changed literal or comparison is stale code, never a typo.
//
// Thresholds of the fuzzy edit matchers, chosen on the edit-accuracy corpus
// (corpus/edit-corpus.ts, run by corpus/corpus.test.ts). Line similarities measured on it (whitespace
// collapsed, 1 − Levenshtein ÷ longer length): typos and changed literals 0.92–0.95 ("conect" →
// 0.95, "attempts = 4" vs "= 3" → 0.92); lines rewritten since the model read them 0.09–0.42; a
// changed argument ("audit(action, user)" vs "audit('create', user)") 0.68. The values sit between
// the two groups: typo cases apply, stale cases are refused, and a search close to two blocks finds
// both and is refused as ambiguous. OpenCode accepts any single anchor-matched block (threshold 0.0).

/**
 * block-anchored: first and last lines match (trimmed); the middle's non-blank lines are compared one
 * for one (blank lines are ignored, so a missing or extra blank line does not count). The average of
 * the per-line similarities must reach this. 0.85 accepts a typo or two per line and refuses a line
 * that was rewritten (corpus: "typo in one middle line" ≈0.98 average; stale middles average < 0.5).
 */
export const BLOCK_MIN_AVERAGE = 0.85;
/** block-anchored: and no single middle line may be less alike than this (a rewritten line scores ≤ 0.68 on the corpus). */
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
