// The matcher chain, in the order replace() tries it (OpenCode's order, with unicode-normalised added
// for curly quotes and other typographic swaps; escaped searches are a reading of their own, see
// ../search-variants.ts).
import type { Matcher } from "../candidate.js";
import { blockAnchoredMatcher } from "./block-anchored.js";
import { contextAwareMatcher } from "./context-aware.js";
import { exactMatcher } from "./exact.js";
import {
  indentationFlexibleMatcher,
  lineTrimmedMatcher,
  whitespaceNormalisedMatcher,
} from "./line-windows.js";
import { unicodeNormalisedMatcher } from "./unicode-normalised.js";
import { trimmedBoundaryMatcher } from "./trimmed-boundary.js";

export const MATCHERS: readonly Matcher[] = [
  exactMatcher,
  lineTrimmedMatcher,
  blockAnchoredMatcher,
  whitespaceNormalisedMatcher,
  indentationFlexibleMatcher,
  unicodeNormalisedMatcher,
  trimmedBoundaryMatcher,
  contextAwareMatcher,
];
