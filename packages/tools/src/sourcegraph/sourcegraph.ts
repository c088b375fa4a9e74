import { z } from "zod";
import { defineTool, type Tool } from "../tool.js";
import { DEFAULT_TRUNCATION, truncateOutput, type TruncationLimits } from "../truncate.js";
import { searchEvents } from "./event-stream.js";
import { openSearch, SourcegraphError } from "./search-request.js";
import { renderResults, searchResult, type SearchMatch, type SearchResult } from "./search-results.js";
import { SearchStatus } from "./search-status.js";
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
  /** The `fetch` to use (default: the global one). Redirects are followed by the tool, not by `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Retries of a 429 or 503 answer that carries `Retry-After`. Default 3. */
  maxRetries?: number;
  /** Longest `Retry-After` waited for, in seconds; a longer one fails the call, saying the wait. Default 30. */
  maxRetryWaitSeconds?: number;
  /** Redirects followed at most (each new origin is asked for). Default 5. */
  maxRedirects?: number;
}

export { SourcegraphError };

const SourcegraphParameters = z.object({
  query: z.string().min(1).describe("The Sourcegraph search query"),
  count: z.number().int().min(1).max(20).optional().describe("Matches to return (default 10, max 20)"),
  context_window: z.number().int().min(0).max(50).optional().describe("Lines of context around each match (default 10)"),
  timeout: z.number().positive().optional().describe("Timeout in seconds (default 30, max 120)"),
});

/** Metadata of a `sourcegraph` result. */
export interface SourcegraphMetadata extends Record<string, unknown> {
  /** The instance searched (the origin that answered, after redirects). */
  url: string;
  /** Matches the instance reported in all (its `progress` count), or the results received. */
  matchCount: number;
  /** Results shown (a file's content, path or symbols; a repository; a commit; an owner). */
  results: number;
  /** Distinct files among the results shown. */
  files: number;
  /** Not everything received is shown (more results than `count`, stream cut at `maxBytes`, output truncated). */
  truncated: boolean;
  /**
   * The search is whole: Sourcegraph sent `done`, skipped nothing that holds matches (timed-out
   * shards, limits, missing repositories) and the stream was not cut. False shows in the output too.
   */
  complete: boolean;
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

      const timeout = AbortSignal.timeout(seconds * 1000);
      const signal = AbortSignal.any([ctx.abort, timeout]);
      const timedOut = `The search timed out after ${seconds} s`;
      const opened = await openSearch(
        {
          endpoint,
          query: args.query,
          ...(options.token ? { token: options.token } : {}),
          fetch: options.fetch ?? globalThis.fetch,
          signal,
          deadline: Date.now() + seconds * 1000,
          maxRetries: options.maxRetries ?? 3,
          maxRetryWaitSeconds: options.maxRetryWaitSeconds ?? 30,
          maxRedirects: options.maxRedirects ?? 5,
        },
        ctx,
      ).catch((error: unknown) => {
        if (timeout.aborted && !ctx.abort.aborted) throw new SourcegraphError(`${timedOut} on ${base.origin}.`);
        throw error;
      });
      const origin = opened.origin;

      const results: SearchResult[] = [];
      const status = new SearchStatus();
      let left = 0;
      let cut = false;
      let done = false;
      // Why the stream stopped before `done`, when it did: said to the model beside what arrived.
      let stopped: string | undefined;
      try {
        for await (const { event, data } of searchEvents(opened.response.body!, maxBytes, () => (cut = true))) {
          if (event === "done") {
            done = true;
            break;
          }
          if (event === "error") {
            stopped = `Sourcegraph reported an error: ${(data as { message?: string })?.message ?? String(data)}`;
            break;
          }
          if (event === "matches" && Array.isArray(data)) {
            for (const match of data as SearchMatch[]) {
              const result = searchResult(match, MAX_LINE);
              if (result && results.length < count) results.push(result);
              else if (result) left++;
            }
            continue;
          }
          status.take(event, data);
        }
      } catch (error) {
        if (ctx.abort.aborted) throw error;
        stopped = timeout.aborted ? `${timedOut}.` : `The connection was cut mid-stream (${causeOf(error)}).`;
      }
      // Nothing worth showing arrived: an error says more than an empty result would.
      if (stopped && results.length === 0 && !status.lines().length) throw new SourcegraphError(`${stopped} (${origin})`);

      const complete = done && !cut && !stopped && status.missing.length === 0 && !status.unfinished;
      const matchCount = Math.max(status.matchCount, results.length + left);
      const atLeast = status.missing.length ? "at least " : "";
      const files = new Set(results.filter((r) => r.path).map((r) => `${r.repository}\0${r.path}`)).size;
      const header = [
        results.length === 0
          ? `No matches for ${JSON.stringify(args.query)} on ${origin}.`
          : `${atLeast}${matchCount} match${matchCount === 1 ? "" : "es"} for ${JSON.stringify(args.query)} on ${origin}; showing ${results.length} result${results.length === 1 ? "" : "s"}.`,
        ...opened.waits,
        ...status.lines(),
        ...(stopped ? [`${stopped} The results that arrived are shown; the search is incomplete.`] : []),
        ...(cut ? [`The response was larger than ${maxBytes} bytes and was cut; narrow the query for the rest.`] : []),
        ...(!done && !stopped && !cut ? ["The stream ended before Sourcegraph said it was done; the search is incomplete."] : []),
        ...(done && !complete && !stopped && !cut ? ["Sourcegraph did not search everything (see above); the search is incomplete."] : []),
      ];
      const out = await truncateOutput([...header, "", renderResults(results)].join("\n").trimEnd(), ctx, { limits });
      const metadata: SourcegraphMetadata = { url: origin, matchCount, results: results.length, files, truncated: cut || out.truncated || left > 0, complete };
      if (out.outputPath) metadata.outputPath = out.outputPath;
      return { title: args.query, output: out.output, metadata };
    },
  });
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } })?.cause;
  return cause?.message ?? cause?.code ?? (error instanceof Error ? error.message : String(error));
}

/** The `sourcegraph` tool against the public instance. */
export const sourcegraphTool = createSourcegraphTool();
