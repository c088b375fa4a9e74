// The shape of a corpus case and the helpers the case files share.
import type { MatcherName } from "../candidate.js";
import type { ReplaceErrorCode } from "../../errors.js";

/** What a case exercises; the corpus score is reported per category. */
export type Category =
  | "basics"
  | "prefixes"
  | "indentation"
  | "whitespace"
  | "escapes"
  | "elisions"
  | "near-duplicates"
  | "unicode"
  | "stale"
  | "large";

/** One corpus case: a file, the search and replacement a model sent, and the exact expected file or refusal. */
export interface EditCase {
  name: string;
  category: Category;
  file: string;
  search: string;
  replacement: string;
  replaceAll?: boolean;
  /** The expected content, or the expected refusal. */
  expect: { content: string; matcher?: MatcherName; line?: number } | { refuse: ReplaceErrorCode; lines?: number[] };
}

/** Lines joined with "\n", with a final newline. */
export const L = (...lines: string[]): string => `${lines.join("\n")}\n`;
/** Lines joined with "\r\n", with a final CRLF. */
export const CRLF = (...lines: string[]): string => `${lines.join("\r\n")}\r\n`;

/** Cases written without a category, all given `category`. */
export function inCategory(category: Category, cases: Array<Omit<EditCase, "category">>): EditCase[] {
  return cases.map((c) => ({ ...c, category }));
}

/** `lines` each prefixed the way Lathe's `read` numbers them, from line `first`. */
export function numbered(first: number, ...lines: string[]): string {
  return lines.map((line, k) => `${String(first + k).padStart(6)}\t${line}`).join("\n");
}
