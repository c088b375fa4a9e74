// Opens a Sourcegraph search stream: redirects are followed by hand so that every origin the query
// reaches is asked for first (and the token goes only to the configured instance), and a 429 or
// 503 that says when to come back (`Retry-After`) is retried a bounded number of times.
import { setTimeout as sleep } from "node:timers/promises";
import type { ToolContext } from "../tool.js";

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

/** How {@link openSearch} reaches the instance. */
export interface SearchRequest {
  endpoint: URL;
  query: string;
  token?: string;
  fetch: typeof globalThis.fetch;
  signal: AbortSignal;
  /** When the call's timeout fires (ms since the epoch): no wait may run past it. */
  deadline: number;
  maxRetries: number;
  /** The longest `Retry-After` waited for, in seconds. */
  maxRetryWaitSeconds: number;
  maxRedirects: number;
}

/** The open stream, and what it took to get there (each wait, to tell the model). */
export interface OpenedSearch {
  response: Response;
  /** The origin that answered (after redirects). */
  origin: string;
  waits: string[];
}

const RETRY_STATUS = new Set([429, 503]);

/** Sends the search, asking `sourcegraph` for each origin first; returns the first 2xx response. */
export async function openSearch(request: SearchRequest, ctx: ToolContext): Promise<OpenedSearch> {
  const home = request.endpoint.origin;
  const asked = new Set<string>();
  const waits: string[] = [];
  let url = request.endpoint;
  let redirects = 0;
  let retries = 0;
  for (;;) {
    if (!asked.has(url.origin)) {
      await ctx.ask({ permission: "sourcegraph", patterns: [url.origin], metadata: { url: url.origin, query: request.query } });
      asked.add(url.origin);
    }
    const headers: Record<string, string> = { Accept: "text/event-stream", "User-Agent": "Lathe/0 (sourcegraph)" };
    if (request.token && url.origin === home) headers.Authorization = `token ${request.token}`;
    const response = await request.fetch(url, { headers, signal: request.signal, redirect: "manual" }).catch((error: unknown) => {
      if (request.signal.aborted) throw error;
      const cause = (error as { cause?: Error })?.cause?.message ?? (error instanceof Error ? error.message : String(error));
      throw new SourcegraphError(`Could not reach ${url.origin}: ${cause}`);
    });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (++redirects > request.maxRedirects) throw new SourcegraphError(`Too many redirects (more than ${request.maxRedirects}) from ${home}.`);
      url = redirectTarget(location, url);
      continue;
    }
    if (RETRY_STATUS.has(response.status)) {
      const seconds = retryAfterSeconds(response.headers.get("retry-after"));
      const text = await bodyText(response);
      const answered = `Sourcegraph answered ${response.status} ${response.statusText}`.trim();
      if (seconds === undefined) throw new SourcegraphError(`${answered}${text ? `: ${text}` : ""}`, response.status);
      const refuse = (why: string) => new SourcegraphError(`${answered} and asked to wait ${seconds} s before retrying; ${why}`, response.status);
      if (retries >= request.maxRetries) throw refuse(`it was retried ${retries} time${retries === 1 ? "" : "s"} already. Try again later.`);
      if (seconds > request.maxRetryWaitSeconds) throw refuse(`that is longer than the ${request.maxRetryWaitSeconds} s this tool waits. Try again later.`);
      if (Date.now() + seconds * 1000 >= request.deadline) throw refuse("that is past the call's timeout. Try again later or with a longer timeout.");
      retries++;
      const said = `${answered}; waited ${seconds} s as its Retry-After asked, then retried (retry ${retries} of at most ${request.maxRetries}).`;
      ctx.metadata({ title: `${request.query} (waiting ${seconds} s: ${response.status} Retry-After)` });
      await sleep(seconds * 1000, undefined, { signal: request.signal });
      waits.push(said);
      continue;
    }
    if (!response.ok || !response.body) {
      const text = await bodyText(response);
      throw new SourcegraphError(`Sourcegraph answered ${response.status} ${response.statusText}${text ? `: ${text}` : ""}`.trim(), response.status);
    }
    return { response, origin: url.origin, waits };
  }
}

function redirectTarget(location: string, from: URL): URL {
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new SourcegraphError(`${from.origin} redirected to an invalid address: ${location}`);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") throw new SourcegraphError(`${from.origin} redirected to ${target.protocol} URL, which is not followed.`);
  target.username = "";
  target.password = "";
  return target;
}

/** `Retry-After` in seconds (a number of seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // Only an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`): Date.parse would read "-1" as a year.
  const date = /^[A-Za-z]{3}, /.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

async function bodyText(response: Response): Promise<string> {
  return (await response.text().catch(() => "")).trim().slice(0, 500);
}
