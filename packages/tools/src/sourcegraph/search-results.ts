// Turns each match of a Sourcegraph streaming search into lines the model reads. Every match type
// the API sends (content, path, symbol, repo, commit, diff, person, team) becomes a result; a type
// this code does not know still shows its repository and path, so nothing a search returns is lost.

/** One result, ready to show: where it is (repository, file) and its lines. */
export interface SearchResult {
  /** The repository, or "" for results that belong to none (owners). */
  repository: string;
  /** The file, for content, path and symbol matches. */
  path?: string;
  lines: string[];
}

interface Location {
  line?: number;
}

interface Range {
  start?: Location;
  end?: Location;
}

interface ChunkMatch {
  content?: string;
  contentStart?: Location;
  ranges?: Range[];
}

interface LineMatch {
  line?: string;
  lineNumber?: number;
}

interface MatchedSymbol {
  name?: string;
  containerName?: string;
  kind?: string;
  line?: number;
}

/** A `matches` event's element, in any of the API's shapes (the fields are all optional: nothing is trusted). */
export interface SearchMatch {
  type?: string;
  repository?: string;
  path?: string;
  chunkMatches?: ChunkMatch[];
  lineMatches?: LineMatch[];
  symbols?: MatchedSymbol[];
  description?: string;
  fork?: boolean;
  archived?: boolean;
  oid?: string;
  message?: string;
  authorName?: string;
  authorDate?: string;
  content?: string;
  handle?: string;
  email?: string;
  name?: string;
  displayName?: string;
  user?: { username?: string; displayName?: string };
}

const MAX_COMMIT_LINES = 40;

/** The result one match stands for, or undefined for an element that is not a match at all. */
export function searchResult(match: SearchMatch, maxLineLength: number): SearchResult | undefined {
  if (typeof match !== "object" || match === null) return undefined;
  const cut = (text: string) => (text.length > maxLineLength ? `${text.slice(0, maxLineLength)}…` : text);
  const repository = typeof match.repository === "string" ? match.repository : "";
  const path = typeof match.path === "string" ? match.path : undefined;
  switch (match.type ?? "content") {
    case "content":
      if (!path) return undefined;
      return { repository, path, lines: contentLines(match, cut) };
    case "path":
      if (!path) return undefined;
      return { repository, path, lines: ["(the file's path matches)"] };
    case "symbol":
      if (!path) return undefined;
      return { repository, path, lines: (match.symbols ?? []).map((symbol) => cut(symbolLine(symbol))) };
    case "repo": {
      const flags = [match.fork ? "fork" : "", match.archived ? "archived" : ""].filter(Boolean);
      const about = [match.description?.trim(), flags.length ? `(${flags.join(", ")})` : ""].filter(Boolean).join(" ");
      return { repository, lines: [cut(`(the repository matches)${about ? ` ${about}` : ""}`)] };
    }
    case "commit":
    case "diff":
      return { repository, lines: commitLines(match, cut) };
    case "person":
    case "team":
      return { repository, lines: [cut(`Owner (${match.type}): ${ownerName(match)}`)] };
    default:
      // A type newer than this code: still say where it is, so the model knows it exists.
      return { repository, ...(path ? { path } : {}), lines: [`(a ${String(match.type)} match)`] };
  }
}

/** Numbered lines (`>` marks a matching line; gaps shown as `…`); Sourcegraph counts lines from 0. */
function contentLines(match: SearchMatch, cut: (text: string) => string): string[] {
  const lines = new Map<number, string>();
  const matched = new Set<number>();
  for (const chunk of match.chunkMatches ?? []) {
    const first = chunk.contentStart?.line ?? 0;
    (chunk.content ?? "").split("\n").forEach((text, i) => lines.set(first + i + 1, text));
    for (const range of chunk.ranges ?? []) {
      const from = range.start?.line ?? first;
      const to = range.end?.line ?? from;
      for (let line = from; line <= to; line++) matched.add(line + 1);
    }
  }
  for (const line of match.lineMatches ?? []) {
    if (typeof line.lineNumber !== "number") continue;
    lines.set(line.lineNumber + 1, line.line ?? "");
    matched.add(line.lineNumber + 1);
  }
  const out: string[] = [];
  let previous: number | undefined;
  for (const line of [...lines.keys()].sort((a, b) => a - b)) {
    if (previous !== undefined && line > previous + 1) out.push("…");
    out.push(`${matched.has(line) ? ">" : " "}${String(line).padStart(5)}| ${cut(lines.get(line)!)}`);
    previous = line;
  }
  return out.length ? out : ["(the file matches; no lines were sent)"];
}

/** `>   42| fetchJson (function, in api)`: symbol lines are 1-based already. */
function symbolLine(symbol: MatchedSymbol): string {
  const about = [symbol.kind?.toLowerCase(), symbol.containerName ? `in ${symbol.containerName}` : ""].filter(Boolean).join(", ");
  const line = typeof symbol.line === "number" ? String(symbol.line).padStart(5) : "    ?";
  return `>${line}| ${symbol.name ?? "(unnamed symbol)"}${about ? ` (${about})` : ""}`;
}

function commitLines(match: SearchMatch, cut: (text: string) => string): string[] {
  const head = [`${match.type} ${(match.oid ?? "").slice(0, 12)}`.trim(), match.authorName ? `by ${match.authorName}` : "", match.authorDate ?? ""].filter(Boolean).join(" ");
  const body = (match.content ?? match.message ?? "").split("\n");
  const shown = body.slice(0, MAX_COMMIT_LINES).map(cut);
  if (body.length > MAX_COMMIT_LINES) shown.push(`… (${body.length - MAX_COMMIT_LINES} more lines)`);
  return [head, ...shown];
}

function ownerName(match: SearchMatch): string {
  const name = match.displayName ?? match.name ?? match.user?.displayName ?? match.user?.username ?? match.handle ?? match.email ?? "(unnamed)";
  const contact = [match.handle, match.email].filter((part) => part && part !== name);
  return contact.length ? `${name} <${contact.join(", ")}>` : name;
}

/** Repositories, then files under each, in the order they arrived. */
export function renderResults(results: SearchResult[]): string {
  const byRepository = new Map<string, Map<string, string[]>>();
  for (const result of results) {
    const files = byRepository.get(result.repository) ?? new Map<string, string[]>();
    byRepository.set(result.repository, files);
    const key = result.path ?? "";
    files.set(key, [...(files.get(key) ?? []), ...result.lines]);
  }
  const out: string[] = [];
  for (const [repository, files] of byRepository) {
    out.push(repository ? `## ${repository}` : "## (no repository)");
    // Lines about the repository itself come before its files.
    const own = files.get("");
    if (own) out.push(...own);
    for (const [file, lines] of files) {
      if (file === "") continue;
      out.push(`### ${file}`, ...lines);
    }
    out.push("");
  }
  return out.join("\n").trimEnd();
}
