import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { encodeValue } from "./json-codec.js";

/** A replacement made in every string of a request before it is hashed: a pattern and what replaces it. */
export interface Replacement {
  /** A string (replaced wherever it occurs) or a regular expression (give it the `g` flag to replace every match). */
  pattern: string | RegExp;
  replacement: string;
}

/** How requests are normalised before they are hashed. Record and replay must be given the same options. */
export interface NormalizeOptions {
  /**
   * Replacements made after the built-in ones, e.g. a workspace path: `{ pattern: workspace, replacement: "<workspace>" }`.
   */
  replace?: Replacement[];
  /**
   * Whether the built-in replacements apply (default true): the `Date: …` line of Lathe's system prompt,
   * ISO timestamps, Lathe's session/message/part/permission/tool-call ids, and paths inside the
   * system's temporary directory (`/tmp/lathe-abc123/x.ts` → `<tmp>/x.ts`).
   */
  defaults?: boolean;
  /** A last step over the normalised request, for changes a replacement cannot express. */
  normalize?: (request: Record<string, unknown>) => Record<string, unknown>;
}

// The fields of a call that decide the answer. Left out: the abort signal, raw-chunk switches and
// headers (which may carry credentials and say nothing about the conversation).
const REQUEST_FIELDS = [
  "prompt",
  "tools",
  "toolChoice",
  "responseFormat",
  "maxOutputTokens",
  "temperature",
  "topP",
  "topK",
  "presencePenalty",
  "frequencyPenalty",
  "stopSequences",
  "seed",
  "reasoning",
  "providerOptions",
] as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function temporaryDirectories(): string[] {
  const dirs = new Set([tmpdir()]);
  try {
    dirs.add(realpathSync(tmpdir()));
  } catch {
    // A temporary directory that cannot be resolved is matched as named.
  }
  return [...dirs].filter((dir) => dir !== "/" && dir !== "");
}

/** The built-in replacements (see {@link NormalizeOptions.defaults}). */
export function defaultReplacements(): Replacement[] {
  return [
    { pattern: /^Date: .*$/gm, replacement: "Date: <date>" },
    { pattern: /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, replacement: "<timestamp>" },
    { pattern: /\b(ses|msg|prt|per|call)_[0-9a-f]{15}[0-9A-Za-z]{14}\b/g, replacement: "<$1_id>" },
    ...temporaryDirectories().map((dir) => ({
      pattern: new RegExp(`${escapeRegExp(dir)}/[^/\\s"'\`]+`, "g"),
      replacement: "<tmp>",
    })),
  ];
}

function replaceAll(text: string, replacements: Replacement[]): string {
  let out = text;
  for (const { pattern, replacement } of replacements) {
    out = typeof pattern === "string" ? (pattern === "" ? out : out.split(pattern).join(replacement)) : out.replace(pattern, replacement);
  }
  return out;
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, mapStrings(field, map)]));
  }
  return value;
}

/** The part of a model call that decides its answer, as plain JSON with volatile text replaced. */
export function normalizeRequest(call: object, options: NormalizeOptions = {}): Record<string, unknown> {
  const fields = call as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const field of REQUEST_FIELDS) if (fields[field] !== undefined) picked[field] = fields[field];
  const replacements = [...(options.defaults === false ? [] : defaultReplacements()), ...(options.replace ?? [])];
  const normalized = mapStrings(encodeValue(picked), (text) => replaceAll(text, replacements)) as Record<string, unknown>;
  return options.normalize ? options.normalize(normalized) : normalized;
}

/** JSON with object keys sorted, so equal values always print the same. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${stableStringify(field)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A stable hash of a normalised request: 16 hex digits of its SHA-256. */
export function requestKey(request: Record<string, unknown>): string {
  return createHash("sha256").update(stableStringify(request)).digest("hex").slice(0, 16);
}
