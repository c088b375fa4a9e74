import { z } from "zod";
import { WebFetchError } from "../errors.js";
import { defineTool, type Tool } from "../tool.js";
import { DEFAULT_TRUNCATION, truncateOutput, type TruncationLimits } from "../truncate.js";
import { guardedFetch, type WebFetchFunction } from "./guarded-fetch.js";
import { htmlToMarkdown, htmlToText } from "./html-text.js";
import { AddressPolicy, normalizeUrl, type AllowedAddresses } from "./url-policy.js";
import description from "./webfetch.txt?raw";

/** Options of the `webfetch` tool. */
export interface WebFetchToolOptions {
  /** Largest response accepted, in bytes. Default 5 MB. */
  maxBytes?: number;
  /** Timeout when the call gives none, in seconds. Default 30. */
  defaultTimeoutSeconds?: number;
  /** Longest timeout a call may ask for, in seconds. Default 120. */
  maxTimeoutSeconds?: number;
  /** Redirects followed at most. Default 10. */
  maxRedirects?: number;
  /** Output limits (default 2,000 lines / 50 KB). */
  truncation?: Partial<TruncationLimits>;
  /**
   * The `fetch` to use, e.g. with a proxy agent. Default: webfetch's own, which checks the address
   * it connects to. A `fetch` of the host's gets each hop's address checked before the request,
   * but not at connect time (a name that changes its answer in between is not caught).
   */
  fetch?: typeof globalThis.fetch;
  /**
   * Non-public addresses webfetch may reach (checked after DNS resolution, on every redirect hop):
   * `true` any, a list of addresses and CIDR ranges (`["127.0.0.1", "10.0.0.0/8"]`), or `false`
   * (default): loopback, private, link-local, cloud metadata and other non-public addresses are refused.
   */
  allowPrivateAddresses?: AllowedAddresses;
  /** The User-Agent header. */
  userAgent?: string;
}

const WebFetchParameters = z.object({
  url: z.string().describe("The http:// or https:// URL to fetch"),
  format: z.enum(["markdown", "text", "html"]).default("markdown").describe("How to return the content (default markdown)"),
  timeout: z.number().positive().optional().describe("Timeout in seconds (default 30, max 120)"),
});

/** Metadata of a `webfetch` result. */
export interface WebFetchMetadata extends Record<string, unknown> {
  /** The URL the content came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** Size of the response body in bytes. */
  bytes: number;
  truncated: boolean;
  outputPath?: string;
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** Creates the `webfetch` tool. */
export function createWebFetchTool(options: WebFetchToolOptions = {}): Tool<typeof WebFetchParameters, WebFetchMetadata> {
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 10;
  const limits = { ...DEFAULT_TRUNCATION, ...options.truncation };
  const addresses = new AddressPolicy(options.allowPrivateAddresses ?? false);
  const doFetch = (options.fetch as WebFetchFunction | undefined) ?? guardedFetch(addresses);
  return defineTool({
    name: "webfetch",
    description,
    parameters: WebFetchParameters,
    readOnly: true,
    boundsOutput: true,
    async execute(args, ctx) {
      const format = args.format ?? "markdown";
      const seconds = Math.min(args.timeout ?? options.defaultTimeoutSeconds ?? 30, options.maxTimeoutSeconds ?? 120);
      const signal = AbortSignal.any([ctx.abort, AbortSignal.timeout(seconds * 1000)]);
      let url = parseHttpUrl(args.url);
      let response: Response;
      for (let redirects = 0; ; redirects++) {
        // Every address, the first and each redirect target, is asked for on its own, in its one
        // normal spelling; then where it leads is checked before anything is sent.
        await ctx.ask({ permission: "webfetch", patterns: [url.href], metadata: { url: url.href, format, timeout: seconds } });
        await addresses.check(url);
        response = await doFetch(url, {
          redirect: "manual",
          signal,
          headers: { "User-Agent": options.userAgent ?? "Lathe/0 (webfetch)", Accept: ACCEPT[format] },
        }).catch((error: unknown) => {
          throw fetchFailure(url.href, error, seconds);
        });
        const location = response.headers.get("location");
        if (response.status < 300 || response.status > 399 || !location) break;
        await response.body?.cancel();
        if (redirects >= maxRedirects) throw new WebFetchError(url.href, `Too many redirects (more than ${maxRedirects}) starting from ${args.url}.`);
        url = parseHttpUrl(new URL(location, url).href);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new WebFetchError(url.href, `Request to ${url.href} failed with status ${response.status} ${response.statusText}`.trim(), response.status);
      }
      const declared = Number(response.headers.get("content-length") ?? "0");
      if (declared > maxBytes) {
        await response.body?.cancel();
        throw tooLarge(url.href, maxBytes);
      }
      const body = await readCapped(response, maxBytes, url.href, seconds);
      const contentType = response.headers.get("content-type") ?? "";
      const mime = contentType.split(";")[0]!.trim().toLowerCase();
      const base = { url: url.href, status: response.status, contentType, bytes: body.length };

      if (IMAGE_TYPES.has(mime)) {
        const metadata: WebFetchMetadata = { ...base, truncated: false };
        return {
          title: url.href,
          output: `Image fetched from ${url.href} (${mime}, ${body.length} bytes).`,
          metadata,
          attachments: [{ mime, url: `data:${mime};base64,${body.toString("base64")}` }],
        };
      }
      const text = decode(body, contentType);
      const isHtml = mime === "text/html" || mime === "application/xhtml+xml";
      const content = !isHtml || format === "html" ? text : format === "markdown" ? htmlToMarkdown(text) : htmlToText(text);
      const out = await truncateOutput(content, ctx, { limits });
      const metadata: WebFetchMetadata = { ...base, truncated: out.truncated };
      if (out.outputPath) metadata.outputPath = out.outputPath;
      return { title: `${url.href} (${mime || "unknown type"})`, output: out.output, metadata };
    },
  });
}

const ACCEPT: Record<"markdown" | "text" | "html", string> = {
  markdown: "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1",
  text: "text/plain;q=1.0, text/markdown;q=0.9, text/html;q=0.8, */*;q=0.1",
  html: "text/html;q=1.0, application/xhtml+xml;q=0.9, text/plain;q=0.8, */*;q=0.1",
};

function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebFetchError(text, `Invalid URL: ${text}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WebFetchError(text, `Only http:// and https:// URLs can be fetched, not ${url.protocol}`);
  }
  return normalizeUrl(url);
}

function tooLarge(url: string, maxBytes: number): WebFetchError {
  return new WebFetchError(url, `The response from ${url} is larger than ${maxBytes} bytes; it was not fetched.`);
}

function fetchFailure(url: string, error: unknown, seconds: number): Error {
  const name = (error as Error)?.name;
  if (name === "TimeoutError") return new WebFetchError(url, `Fetching ${url} timed out after ${seconds} s.`);
  if (name === "AbortError") return error as Error;
  const cause = (error as { cause?: Error })?.cause?.message ?? (error as Error)?.message ?? String(error);
  return new WebFetchError(url, `Fetching ${url} failed: ${cause}`);
}

async function readCapped(response: Response, maxBytes: number, url: string, seconds: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(url, maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof WebFetchError) throw error;
    throw fetchFailure(url, error, seconds);
  }
  return Buffer.concat(chunks);
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/** The `webfetch` tool with default limits. */
export const webfetchTool = createWebFetchTool();
