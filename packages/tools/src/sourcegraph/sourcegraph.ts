import { z } from "zod";
import { defineTool, type Tool } from "../tool.js";
import { DEFAULT_TRUNCATION, truncateOutput, type TruncationLimits } from "../truncate.js";
import { searchEvents } from "./event-stream.js";
import { fileMatches, renderMatches, type ContentMatch, type FileMatches } from "./search-results.js";
import description from "./sourcegraph.txt?raw";

/** Options of the `sourcegraph` tool. */
export interface SourcegraphToolOptions {
  /** The Sourcegraph instance; default the public one, `https://sourcegraph.com`. */
  url?: string;
  /** An access token for the instance (sent as `Authorization: token …`). */
  token?: string;
  /** Largest response read, in bytes; a larger stream is cut there and its results so far shown. Default 5 MB. */
  maxBytes?: number;
  /** Longest timeout a call may ask for, in seconds. Default 120. */
  maxTimeoutSeconds?: number;
  /** Output limits (default 2,000 lines / 50 KB). */
  truncation?: Partial<TruncationLimits>;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

/** A Sourcegraph search that failed: HTTP error, error event, timeout. */
export class SourcegraphError extends Error {
  override readonly name = "SourcegraphError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const SourcegraphParameters = z.object({
  query: z.string().min(1).describe("The Sourcegraph search query"),
  count: z.number().int().min(1).max(20).optional().describe("Matches to return (default 10, max 20)"),
  context_window: z.number().int().min(0).max(50).optional().describe("Lines of context around each match (default 10)"),
  timeout: z.number().positive().optional().describe("Timeout in seconds (default 30, max 120)"),
});

/** Metadata of a `sourcegraph` result. */
export interface SourcegraphMetadata extends Record<string, unknown> {
  /** The instance searched. */
  url: string;
  /** Matches the instance reported in all (its `progress` count), or those received. */
  matchCount: number;
  /** Files shown. */
  files: number;
  /** Not everything received is shown (more files than `count`, stream cut at `maxBytes`, output truncated). */
  truncated: boolean;
  outputPath?: string;
}

const MAX_LINE = 300;

/** Creates the `sourcegraph` tool: searches public code through a Sourcegraph instance's streaming search API. */
export function createSourcegraphTool(options: SourcegraphToolOptions = {}): Tool<typeof SourcegraphParameters, SourcegraphMetadata> {
  const base = new URL(options.url ?? "https://sourcegraph.com");
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const limits = { ...DEFAULT_TRUNCATION, ...options.truncation };
  return defineTool({
    name: "sourcegraph",
    description,
    parameters: SourcegraphParameters,
    readOnly: true,
    boundsOutput: true,
    async execute(args, ctx) {
      const count = args.count ?? 10;
      const seconds = Math.min(args.timeout ?? 30, options.maxTimeoutSeconds ?? 120);
      const endpoint = new URL("/.api/search/stream", base);
      endpoint.search = new URLSearchParams({ q: args.query, v: "V3", t: "keyword", display: String(count), cm: "true", cl: String(args.context_window ?? 10) }).toString();
      await ctx.ask({ permission: "sourcegraph", patterns: [base.origin], metadata: { url: base.origin, query: args.query } });

      const timeout = AbortSignal.timeout(seconds * 1000);
      const signal = AbortSignal.any([ctx.abort, timeout]);
      const timedOut = () => new SourcegraphError(`The search on ${base.origin} timed out after ${seconds} s.`);
      const headers: Record<string, string> = { Accept: "text/event-stream", "User-Agent": "Lathe/0 (sourcegraph)" };
      if (options.token) headers.Authorization = `token ${options.token}`;
      const response = await (options.fetch ?? globalThis.fetch)(endpoint, { headers, signal }).catch((error: unknown) => {
        if (timeout.aborted) throw timedOut();
        if (ctx.abort.aborted) throw error;
        throw new SourcegraphError(`Could not reach ${base.origin}: ${error instanceof Error ? error.message : String(error)}`);
      });
      if (!response.ok || !response.body) {
        const text = (await response.text().catch(() => "")).trim().slice(0, 500);
        throw new SourcegraphError(`Sourcegraph answered ${response.status} ${response.statusText}${text ? `: ${text}` : ""}`.trim(), response.status);
      }

      const files: FileMatches[] = [];
      const alerts: string[] = [];
      let reported = 0;
      let skipped = 0;
      let cut = false;
      try {
        for await (const { event, data } of searchEvents(response.body, maxBytes, () => (cut = true))) {
          if (event === "error") throw new SourcegraphError(`Sourcegraph reported an error: ${(data as { message?: string })?.message ?? String(data)}`);
          if (event === "alert") alerts.push([(data as { title?: string }).title, (data as { description?: string }).description].filter(Boolean).join(": "));
          if (event === "progress") reported = Math.max(reported, Number((data as { matchCount?: number }).matchCount) || 0);
          if (event === "matches" && Array.isArray(data)) {
            for (const match of data as ContentMatch[]) {
              const file = match.type === "content" || match.type === undefined ? fileMatches(match) : undefined;
              if (file && files.length < count) files.push(file);
              else if (file) skipped++;
            }
          }
          if (event === "done") break;
        }
      } catch (error) {
        if (timeout.aborted) throw timedOut();
        throw error;
      }
      const matchCount = Math.max(reported, files.length);
      const header = [
        files.length === 0 ? `No matches for ${JSON.stringify(args.query)} on ${base.origin}.` : `${matchCount} match${matchCount === 1 ? "" : "es"} for ${JSON.stringify(args.query)} on ${base.origin}; showing ${files.length} file${files.length === 1 ? "" : "s"}.`,
        ...alerts.map((a) => `Alert: ${a}`),
        ...(cut ? [`The response was larger than ${maxBytes} bytes and was cut; narrow the query for the rest.`] : []),
      ];
      const out = await truncateOutput([...header, "", renderMatches(files, MAX_LINE)].join("\n").trimEnd(), ctx, { limits });
      const metadata: SourcegraphMetadata = { url: base.origin, matchCount, files: files.length, truncated: cut || out.truncated || skipped > 0 };
      if (out.outputPath) metadata.outputPath = out.outputPath;
      return { title: args.query, output: out.output, metadata };
    },
  });
}

/** The `sourcegraph` tool against the public instance. */
export const sourcegraphTool = createSourcegraphTool();
