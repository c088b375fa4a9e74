// The matcher chain, in the order replace() tries it (OpenCode's order, with unicode-normalised added
// for curly quotes and other typographic swaps).
import type { Matcher } from "../candidate.js";
import { blockAnchoredMatcher } from "./block-anchored.js";
import { contextAwareMatcher } from "./context-aware.js";
import { escapeNormalisedMatcher } from "./escape-normalised.js";
import { exactMatcher } from "./exact.js";
import {
  indentationFlexibleMatcher,
  lineTrimmedMatcher,
  unicodeNormalisedMatcher,
  whitespaceNormalisedMatcher,
} from "./line-windows.js";
import { trimmedBoundaryMatcher } from "./trimmed-boundary.js";

export const MATCHERS: readonly Matcher[] = [
  exactMatcher,
  lineTrimmedMatcher,
  blockAnchoredMatcher,
  whitespaceNormalisedMatcher,
  indentationFlexibleMatcher,
  escapeNormalisedMatcher,
  unicodeNormalisedMatcher,
  trimmedBoundaryMatcher,
  contextAwareMatcher,
];
