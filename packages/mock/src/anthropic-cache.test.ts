import { describe, expect, it } from "vitest";
import { AnthropicCacheSimulator, billedInput } from "./anthropic-cache.js";

// Blocks whose token count is their text's length in characters, so each case is counted by hand.
const count = (block: unknown) => String((block as { text?: string }).text ?? "").length;
const text = (tokens: number, tag: string, ttl?: "5m" | "1h") => ({
  type: "text",
  text: tag.padEnd(tokens, "."),
  ...(ttl ? { cache_control: { type: "ephemeral", ...(ttl === "1h" ? { ttl } : {}) } } : {}),
});
const body = (system: unknown[], messages: Array<{ role: string; content: unknown[] }>) => ({ model: "claude-sonnet-4-5", system, messages });
const MINUTE = 60_000;

describe("AnthropicCacheSimulator (hand-computed examples)", () => {
  it("writes the prefix up to a breakpoint at 1.25×, then reads it at 0.1× on the next request", () => {
    const sim = new AnthropicCacheSimulator({ countTokens: count });
    const first = sim.request(body([text(2000, "sys", "5m")], [{ role: "user", content: [text(500, "u1")] }]), 0);
    expect(first).toEqual({ input: 500, cacheRead: 0, cacheWrite5m: 2000, cacheWrite1h: 0, total: 2500 });
    expect(billedInput(first)).toBe(500 + 2000 * 1.25);
    // Same system, a longer conversation, the newest message marked: 2000 read, 500 + 300 written.
    const second = sim.request(
      body([text(2000, "sys", "5m")], [{ role: "user", content: [text(500, "u1")] }, { role: "assistant", content: [text(300, "a1")] }, { role: "user", content: [text(100, "u2", "5m")] }]),
      60_000,
    );
    expect(second).toEqual({ input: 0, cacheRead: 2000, cacheWrite5m: 900, cacheWrite1h: 0, total: 2900 });
    expect(billedInput(second)).toBeCloseTo(2000 * 0.1 + 900 * 1.25, 9);
  });

  it("caches nothing below the minimum, and nothing without a breakpoint", () => {
    const sim = new AnthropicCacheSimulator({ countTokens: count });
    expect(sim.request(body([text(1000, "sys", "5m")], [{ role: "user", content: [text(20, "u")] }]), 0)).toMatchObject({ input: 1020, cacheWrite5m: 0 });
    expect(sim.request(body([text(1000, "sys", "5m")], [{ role: "user", content: [text(20, "u")] }]), 1).cacheRead).toBe(0);
    expect(sim.request(body([text(5000, "big")], [{ role: "user", content: [text(20, "u")] }]), 2)).toMatchObject({ input: 5020, cacheRead: 0, cacheWrite5m: 0 });
  });

  it("forgets an entry 5 minutes after its last use (reads refresh it); a 1-hour write costs 2× and lasts", () => {
    const sim = new AnthropicCacheSimulator({ countTokens: count });
    const req = (ttl: "5m" | "1h") => body([text(2000, `sys-${ttl}`, ttl)], [{ role: "user", content: [text(10, "u")] }]);
    sim.request(req("5m"), 0);
    expect(sim.request(req("5m"), 4 * 60_000).cacheRead).toBe(2000); // refreshed at 4 min
    expect(sim.request(req("5m"), 8 * 60_000).cacheRead).toBe(2000); // 4 min after the refresh
    expect(sim.request(req("5m"), 14 * 60_000)).toMatchObject({ cacheRead: 0, cacheWrite5m: 2000 }); // 6 min idle: gone
    const hour = sim.request(req("1h"), 0);
    expect(hour).toMatchObject({ cacheWrite1h: 2000, cacheWrite5m: 0 });
    expect(billedInput(hour)).toBe(10 + 4000);
    expect(sim.request(req("1h"), 50 * 60_000).cacheRead).toBe(2000);
    expect(sim.request(req("1h"), 50 * 60_000 + MINUTE * 61).cacheRead).toBe(0);
  });

  it("looks back 20 blocks from a breakpoint, no further", () => {
    const sim = new AnthropicCacheSimulator({ countTokens: count });
    const sys = text(2000, "sys");
    const blocks = (n: number) => Array.from({ length: n }, (_, i) => text(10, `b${i}`));
    // Written: system + 1 block, the breakpoint on that block.
    sim.request(body([sys], [{ role: "user", content: [{ ...text(10, "b0"), cache_control: { type: "ephemeral" } }] }]), 0);
    // 20 blocks later the only breakpoint still finds it (b0 is 20 blocks before b20).
    const near = blocks(21);
    near[20] = { ...near[20]!, cache_control: { type: "ephemeral" } } as never;
    expect(sim.request(body([sys], [{ role: "user", content: near }]), 1)).toMatchObject({ cacheRead: 2010, cacheWrite5m: 200 });
    // A fresh cache; 21 blocks later it is out of reach: everything is written again.
    const far = new AnthropicCacheSimulator({ countTokens: count });
    far.request(body([sys], [{ role: "user", content: [{ ...text(10, "b0"), cache_control: { type: "ephemeral" } }] }]), 0);
    const beyond = blocks(22);
    beyond[21] = { ...beyond[21]!, cache_control: { type: "ephemeral" } } as never;
    expect(far.request(body([sys], [{ role: "user", content: beyond }]), 1)).toMatchObject({ cacheRead: 0, cacheWrite5m: 2220 });
  });

  it("bills the tokens between two breakpoints at the later one's TTL, and a changed early byte misses everything after it", () => {
    const sim = new AnthropicCacheSimulator({ countTokens: count });
    const usage = sim.request(body([text(2000, "sys", "1h")], [{ role: "user", content: [text(400, "u", "5m")] }]), 0);
    expect(usage).toEqual({ input: 0, cacheRead: 0, cacheWrite5m: 400, cacheWrite1h: 2000, total: 2400 });
    expect(billedInput(usage)).toBe(2000 * 2 + 400 * 1.25);
    // The system text differs by one character: no read at all.
    expect(sim.request(body([text(2000, "sys!", "1h")], [{ role: "user", content: [text(400, "u", "5m")] }]), 1).cacheRead).toBe(0);
    // cache_control is not content: the same prefix marked elsewhere is still read.
    expect(sim.request(body([text(2000, "sys")], [{ role: "user", content: [text(400, "u", "5m")] }]), 2).cacheRead).toBe(2400);
  });
});
