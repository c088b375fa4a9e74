/** A file's matched lines: line number (1-based) → text, and which of them matched. */
export interface FileMatches {
  repository: string;
  path: string;
  lines: Map<number, string>;
  matched: Set<number>;
}

interface Range {
  start?: { line?: number };
  end?: { line?: number };
}

interface ChunkMatch {
  content?: string;
  contentStart?: { line?: number };
  ranges?: Range[];
}

interface LineMatch {
  line?: string;
  lineNumber?: number;
}

/** A `matches` event's `content` match, in either shape the API sends (`chunkMatches` or the older `lineMatches`). */
export interface ContentMatch {
  type?: string;
  repository?: string;
  path?: string;
  chunkMatches?: ChunkMatch[];
  lineMatches?: LineMatch[];
}

/** The lines of one content match (Sourcegraph counts lines from 0; these are 1-based). */
export function fileMatches(match: ContentMatch): FileMatches | undefined {
  if (typeof match.repository !== "string" || typeof match.path !== "string") return undefined;
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
  return { repository: match.repository, path: match.path, lines, matched };
}

/** Repositories, then files, then numbered lines (`>` marks a matching line); gaps shown as `…`. */
export function renderMatches(files: FileMatches[], maxLineLength: number): string {
  const byRepository = new Map<string, FileMatches[]>();
  for (const file of files) byRepository.set(file.repository, [...(byRepository.get(file.repository) ?? []), file]);
  const out: string[] = [];
  for (const [repository, repoFiles] of byRepository) {
    out.push(`## ${repository}`);
    for (const file of repoFiles) {
      out.push(`### ${file.path}`);
      let previous: number | undefined;
      for (const line of [...file.lines.keys()].sort((a, b) => a - b)) {
        if (previous !== undefined && line > previous + 1) out.push("…");
        const text = file.lines.get(line)!;
        const cut = text.length > maxLineLength ? `${text.slice(0, maxLineLength)}…` : text;
        out.push(`${file.matched.has(line) ? ">" : " "}${String(line).padStart(5)}| ${cut}`);
        previous = line;
      }
    }
    out.push("");
  }
  return out.join("\n").trimEnd();
}
