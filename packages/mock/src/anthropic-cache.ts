import { createHash } from "node:crypto";

// A simulator of Anthropic's published prompt-caching rules, applied to the exact bodies of
// Messages API requests, so a test or a benchmark can tell what a session would be billed without
// calling the API. The rules (docs.anthropic.com, "Prompt caching"):
// - the prompt is read as blocks in order — tool definitions, system blocks, then each message's
//   content blocks — and a `cache_control` on a block makes it a breakpoint (at most 4);
// - at each breakpoint the cache is looked up at that block and up to 20 blocks before it; the
//   longest cached prefix found is read, at 0.1× the input price;
// - the prefix up to each breakpoint past what was read is written, at 1.25× (5-minute TTL) or 2×
//   (1-hour TTL) — the tokens between two breakpoints at the later one's rate;
// - a prefix shorter than the model's minimum (1,024 tokens for most) is neither written nor read;
// - an entry lives its TTL from when it was last written or read;
// - the rest of the prompt is plain input at 1×; `cache_control` itself is not part of the content.

/** The simulator's settings; all have the published defaults. */
export interface CacheSimulatorOptions {
  /** The shortest prefix that is cached, in tokens. Default 1,024. */
  minTokens?: number;
  /** How many blocks before a breakpoint are looked up too. Default 20. */
  lookback?: number;
  /** Tokens of one block (cache_control removed); default its JSON length / 4, rounded up. */
  countTokens?: (block: unknown) => number;
}

/** What one request was billed, in tokens. */
export interface CacheSimUsage {
  /** Plain input tokens, at 1× the input price. */
  input: number;
  /** Tokens read from the cache, at 0.1×. */
  cacheRead: number;
  /** Tokens written with the 5-minute TTL, at 1.25×. */
  cacheWrite5m: number;
  /** Tokens written with the 1-hour TTL, at 2×. */
  cacheWrite1h: number;
  /** Every input token of the request (what it costs uncached). */
  total: number;
}

/** The published price multipliers of cached input, relative to the model's input price. */
export const ANTHROPIC_CACHE_MULTIPLIERS = { read: 0.1, write5m: 1.25, write1h: 2 } as const;

/** A request's input cost in units of the model's input price per token (1 token uncached = 1). */
export function billedInput(usage: CacheSimUsage): number {
  const m = ANTHROPIC_CACHE_MULTIPLIERS;
  return usage.input + usage.cacheRead * m.read + usage.cacheWrite5m * m.write5m + usage.cacheWrite1h * m.write1h;
}

const TTL_MS = { "5m": 5 * 60_000, "1h": 60 * 60_000 } as const;
type Ttl = keyof typeof TTL_MS;

interface Block {
  tokens: number;
  /** Hash of the prefix through this block. */
  hash: string;
  ttl?: Ttl | undefined;
}

/**
 * Anthropic's prompt cache, one per organisation and model as the API keeps it: feed it each
 * request body of a session in order, with the time it was sent, and it returns what the request is
 * billed for (see the rules at the top of this file).
 */
export class AnthropicCacheSimulator {
  private readonly entries = new Map<string, { expires: number; ttl: Ttl }>();
  private readonly minTokens: number;
  private readonly lookback: number;
  private readonly countTokens: (block: unknown) => number;

  constructor(options: CacheSimulatorOptions = {}) {
    this.minTokens = options.minTokens ?? 1_024;
    this.lookback = options.lookback ?? 20;
    this.countTokens = options.countTokens ?? ((block) => Math.ceil(JSON.stringify(block).length / 4));
  }

  /** Bills one Messages API request body sent at `now` (ms) and updates the cache. */
  request(body: unknown, now: number): CacheSimUsage {
    const blocks = this.blocks(body);
    let total = 0;
    const through: number[] = [];
    for (const block of blocks) through.push((total += block.tokens));
    const breakpoints = blocks.flatMap((block, index) => (block.ttl ? [index] : []));

    // The longest cached prefix at or up to `lookback` blocks before any breakpoint.
    let hit = -1;
    for (const point of breakpoints) {
      for (let at = point; at >= Math.max(0, point - this.lookback) && at > hit; at--) {
        const entry = this.entries.get(blocks[at]!.hash);
        if (entry && entry.expires > now) {
          hit = at;
          break;
        }
      }
    }
    const read = hit >= 0 ? through[hit]! : 0;
    if (hit >= 0) {
      const entry = this.entries.get(blocks[hit]!.hash)!;
      entry.expires = now + TTL_MS[entry.ttl];
    }

    // Each breakpoint past the hit whose prefix is long enough is written; the tokens since the
    // previous written point are billed at its TTL.
    let written = read;
    const usage: CacheSimUsage = { input: 0, cacheRead: read, cacheWrite5m: 0, cacheWrite1h: 0, total };
    for (const point of breakpoints) {
      const ttl = blocks[point]!.ttl!;
      if (through[point]! < this.minTokens) continue;
      // A breakpoint at or before the hit refreshes what it points at.
      const existing = this.entries.get(blocks[point]!.hash);
      if (point <= hit) {
        if (existing && existing.expires > now) existing.expires = now + TTL_MS[existing.ttl];
        continue;
      }
      const tokens = through[point]! - written;
      if (ttl === "1h") usage.cacheWrite1h += tokens;
      else usage.cacheWrite5m += tokens;
      written = through[point]!;
      this.entries.set(blocks[point]!.hash, { expires: now + TTL_MS[ttl], ttl });
    }
    usage.input = total - written;
    return usage;
  }

  /** The request's blocks in cache order, each with its prefix hash and breakpoint. */
  private blocks(body: unknown): Block[] {
    const request = body as { model?: string; tools?: unknown[]; system?: unknown; messages?: Array<{ role: string; content: unknown }> };
    const raw: Array<{ value: unknown; role?: string }> = [];
    for (const tool of request.tools ?? []) raw.push({ value: tool });
    const system = request.system;
    if (typeof system === "string") raw.push({ value: { type: "text", text: system } });
    else for (const block of (system as unknown[] | undefined) ?? []) raw.push({ value: block });
    for (const message of request.messages ?? []) {
      const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as unknown[]);
      for (const block of content) raw.push({ value: block, role: message.role });
    }
    const hash = createHash("sha256").update(String(request.model ?? ""));
    return raw.map(({ value, role }) => {
      const { cache_control: control, ...content } = value as { cache_control?: { type: string; ttl?: Ttl } };
      // The role is part of the content: the same text as a user or an assistant block differs.
      hash.update(JSON.stringify([role ?? "", content]));
      return { tokens: this.countTokens(content), hash: hash.copy().digest("hex"), ttl: control ? (control.ttl ?? "5m") : undefined };
    });
  }
}
