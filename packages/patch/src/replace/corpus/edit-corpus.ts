// The edit-accuracy corpus: one record per case — a file, the search and replacement a model sent,
// and either the exact expected file or the expected refusal, by category (prefixes, indentation,
// whitespace and line endings, escapes, elisions, near-duplicates, unicode, stale text, large files).
// The cases copy the mistakes models really make and the traps where a fuzzy match would hit the
// wrong one of two similar blocks. The thresholds in ../thresholds.ts were chosen on it:
// `corpus.test.ts` runs every case, `bench/patch.bench.ts` prints the score by category.
import { BASE_CASES } from "./cases-base.js";
import { ESCAPE_AND_ELISION_CASES } from "./cases-escapes.js";
import { INDENTATION_CASES } from "./cases-indentation.js";
import { LARGE_CASES } from "./cases-large.js";
import { NEAR_DUPLICATE_CASES } from "./cases-near-duplicates.js";
import { PREFIX_CASES } from "./cases-prefixes.js";
import { SECOND_ROUND_CASES } from "./cases-second-round.js";
import { UNICODE_CASES } from "./cases-unicode.js";
import type { EditCase } from "./helpers.js";

export type { Category, EditCase } from "./helpers.js";

/** Every case of the corpus. */
export const EDIT_CORPUS: EditCase[] = [
  ...BASE_CASES,
  ...PREFIX_CASES,
  ...INDENTATION_CASES,
  ...UNICODE_CASES,
  ...ESCAPE_AND_ELISION_CASES,
  ...NEAR_DUPLICATE_CASES,
  ...LARGE_CASES,
  ...SECOND_ROUND_CASES,
];
