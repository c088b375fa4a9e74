import path from "node:path";
import { z } from "zod";
import { ToolInputError } from "../errors.js";
import { searchLines, type LineMatch } from "../search/file-search.js";
import { readFilter, withheldNote } from "../search/read-filter.js";
import { locateRipgrep, RipgrepError, type RipgrepOption } from "../search/ripgrep.js";
import { resolveSearchRoot, sortNewestFirst } from "../search/search-root.js";
import { defineTool, type Tool } from "../tool.js";
import { truncateOutput } from "../truncate.js";
import description from "./grep.txt?raw";

/** Options of the `grep` tool. */
export interface GrepToolOptions {
  /** Where to find ripgrep; see {@link RipgrepOption}. */
  ripgrep?: RipgrepOption;
  /** Matching lines returned at most. Default 100. */
  limit?: number;
  /** Characters kept of one matching line. Default 2,000. */
  maxLineLength?: number;
}

const GrepParameters = z.object({
  pattern: z.string().describe("The regular expression to search for in file contents"),
  path: z.string().optional().describe("The folder or file to search in (default: the working directory)"),
  include: z.string().optional().describe('Only search files matching this glob, e.g. "*.ts" or "*.{ts,tsx}"'),
});

/** Metadata of a `grep` result. */
export interface GrepMetadata extends Record<string, unknown> {
  /** Matching lines found (before the limit). */
  matches: number;
  /** Files with at least one match. */
  files: number;
  truncated: boolean;
  /** Files in the search's scope left out because reading them is denied or needs approval (absent: none). */
  withheld?: number;
}

/** Creates the `grep` tool. */
export function createGrepTool(options: GrepToolOptions = {}): Tool<typeof GrepParameters, GrepMetadata> {
  const limit = options.limit ?? 100;
  const maxLineLength = options.maxLineLength ?? 2000;
  let rg: string | undefined | null = null;
  return defineTool({
    name: "grep",
    description,
    parameters: GrepParameters,
    readOnly: true,
    boundsOutput: true,
    async execute(args, ctx) {
      if (!args.pattern) throw new ToolInputError("grep", "The pattern is empty.");
      const root = await resolveSearchRoot(ctx, args.path);
      const base = root.isDirectory ? root.absolute : path.dirname(root.absolute);
      rg ??= locateRipgrep(options.ripgrep);
      const backend = { rg, signal: ctx.abort };
      // Lines of a file the model may not read without asking are never shown (read rules, per file).
      const filter = readFilter(ctx, root, { include: args.include, backend });
      // Per file, no more lines than the limit are kept: no file can show more, so memory stays bounded.
      const byFile = new Map<string, LineMatch[]>();
      let total = 0;
      try {
        await searchLines(
          base,
          { pattern: args.pattern, include: args.include, file: root.isDirectory ? undefined : path.basename(root.absolute) },
          backend,
          (match) => {
            if (filter && !filter.allows(match.file)) return;
            total++;
            const list = byFile.get(match.file) ?? [];
            if (list.length < limit) list.push(match);
            byFile.set(match.file, list);
          },
          filter?.beforeRead,
        );
      } catch (error) {
        if (error instanceof RipgrepError) throw new ToolInputError("grep", `Invalid search ${JSON.stringify(args.pattern)}: ${error.stderr.trim()}`);
        throw error;
      }
      const withheld = (await filter?.withheld()) ?? 0;
      const note = withheldNote(withheld);
      const counted = withheld ? { withheld } : {};
      if (total === 0) {
        return { title: args.pattern, output: note ? `No matches found.\n\n${note}` : "No matches found.", metadata: { matches: 0, files: 0, truncated: false, ...counted } };
      }

      const sections: string[] = [];
      let shown = 0;
      for (const file of await sortNewestFirst([...byFile.keys()], base)) {
        if (shown >= limit) break;
        const lines = byFile.get(file)!.sort((a, b) => a.line - b.line).slice(0, limit - shown);
        shown += lines.length;
        const body = lines.map((m) => `  Line ${m.line}: ${m.text.length > maxLineLength ? `${m.text.slice(0, maxLineLength)}…` : m.text}`);
        sections.push(`${root.display(file)}:\n${body.join("\n")}`);
      }
      const truncated = total > shown;
      const header = truncated
        ? `Found ${total} matches in ${byFile.size} files (showing the first ${shown}; narrow the pattern, path or include to see others)`
        : `Found ${total} match${total === 1 ? "" : "es"} in ${byFile.size} file${byFile.size === 1 ? "" : "s"}`;
      // 100 lines of up to 2,000 characters can still exceed the output limit.
      const out = await truncateOutput(`${header}\n\n${sections.join("\n\n")}${note ? `\n\n${note}` : ""}`, ctx);
      return {
        title: args.pattern,
        output: out.output,
        metadata: { matches: total, files: byFile.size, truncated: truncated || out.truncated, ...counted },
      };
    },
  });
}

/** The `grep` tool with default options (ripgrep from `PATH` when there). */
export const grepTool = createGrepTool();
