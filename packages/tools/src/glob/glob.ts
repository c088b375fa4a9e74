import path from "node:path";
import { z } from "zod";
import { ToolInputError } from "../errors.js";
import { listFiles } from "../search/file-search.js";
import { hasGlobSyntax } from "../search/glob-pattern.js";
import { locateRipgrep, RipgrepError, type RipgrepOption } from "../search/ripgrep.js";
import { resolveSearchRoot, sortNewestFirst } from "../search/search-root.js";
import { defineTool, type Tool } from "../tool.js";
import description from "./glob.txt?raw";

/** Options of the `glob` tool. */
export interface GlobToolOptions {
  /** Where to find ripgrep; see {@link RipgrepOption}. */
  ripgrep?: RipgrepOption;
  /** Paths returned at most. Default 100. */
  limit?: number;
}

const GlobParameters = z.object({
  pattern: z.string().describe("The glob pattern to match files against, e.g. **/*.ts"),
  path: z.string().optional().describe("The folder to search in (default: the working directory)"),
});

/** Metadata of a `glob` result. */
export interface GlobMetadata extends Record<string, unknown> {
  /** Files that matched (before the limit). */
  count: number;
  truncated: boolean;
}

/** Creates the `glob` tool. */
export function createGlobTool(options: GlobToolOptions = {}): Tool<typeof GlobParameters, GlobMetadata> {
  const limit = options.limit ?? 100;
  let rg: string | undefined | null = null;
  return defineTool({
    name: "glob",
    description,
    parameters: GlobParameters,
    readOnly: true,
    boundsOutput: true,
    async execute(args, ctx) {
      if (!args.pattern.trim()) throw new ToolInputError("glob", "The pattern is empty.");
      // An absolute pattern (`/repo/src/**/*.ts`) searches from its fixed leading folders.
      let pattern = args.pattern;
      let searchPath = args.path;
      if (path.isAbsolute(pattern)) {
        const parts = pattern.split("/");
        const fixed = parts.findIndex((part) => hasGlobSyntax(part));
        const cut = fixed === -1 ? parts.length - 1 : fixed;
        searchPath = parts.slice(0, cut).join("/") || "/";
        pattern = parts.slice(cut).join("/");
      }
      const root = await resolveSearchRoot(ctx, searchPath);
      if (!root.isDirectory) throw new ToolInputError("glob", `${root.relative} is a file; give a folder as path.`);
      rg ??= locateRipgrep(options.ripgrep);
      const found: string[] = [];
      try {
        await listFiles(root.absolute, pattern, { rg, signal: ctx.abort }, (file) => found.push(file));
      } catch (error) {
        if (error instanceof RipgrepError) throw new ToolInputError("glob", `Invalid pattern ${JSON.stringify(args.pattern)}: ${error.stderr.trim()}`);
        throw error;
      }
      const shown = (await sortNewestFirst(found, root.absolute)).slice(0, limit).map(root.display);
      const truncated = found.length > limit;
      const output = !found.length
        ? "No files found."
        : shown.join("\n") + (truncated ? `\n\n(Showing the ${limit} newest of ${found.length} matching files. Use a more specific pattern or path to see others.)` : "");
      return { title: args.pattern, output, metadata: { count: found.length, truncated } };
    },
  });
}

/** The `glob` tool with default options (ripgrep from `PATH` when there). */
export const globTool = createGlobTool();
