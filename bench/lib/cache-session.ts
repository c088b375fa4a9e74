// A scripted coding session through the real @ai-sdk/anthropic package against the local fake
// Anthropic server (test/anthropic-server.ts), shared by the prompt-caching test and benchmark:
// turns of reads, greps and globs over a generated workspace, then an answer, on a virtual clock
// (4 s a request, 90 s between turns unless told otherwise). Returns the exact request bodies with their send times, so
// the same requests can be billed under other caching schemes.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { createAgent, type CacheSetting } from "@lathe/core";
import { AnthropicCacheSimulator, billedInput, type CacheSimUsage } from "@lathe/mock";
import { startFakeAnthropic, type AnthropicTurn } from "../../test/anthropic-server.ts";

/** A request as sent, and when (on the session's virtual clock, ms). */
export interface SentRequest {
  body: Record<string, unknown>;
  at: number;
}

/** What a session sent, and what the fake API billed each request. */
export interface SessionRun {
  requests: SentRequest[];
  usages: CacheSimUsage[];
}

const FILES = 40;
const REQUEST_MS = 4_000;
const BETWEEN_TURNS_MS = 90_000;

/** Writes the session's workspace: `src/` with files of 30–90 lines, and an AGENTS.md. */
export function writeWorkspace(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "AGENTS.md"), "# Project rules\n- TypeScript, strict.\n- Tests next to the code.\n");
  for (let f = 0; f < FILES; f++) {
    const lines: string[] = [`// module ${f}`];
    for (let l = 0; l < 30 + ((f * 37) % 60); l++) lines.push(`export const v${f}_${l} = ${JSON.stringify(`value ${f}:${l} `.repeat(3))};`);
    writeFileSync(join(dir, "src", `m${f}.ts`), `${lines.join("\n")}\n`);
  }
}

/** The model's answers: per turn, tool steps (read, grep, glob, with a line of text) then an answer. */
export function sessionScript(turns: number[]): AnthropicTurn[] {
  const out: AnthropicTurn[] = [];
  let g = 0;
  for (const steps of turns) {
    for (let s = 0; s < steps - 1; s++, g++) {
      const action =
        g % 5 === 3
          ? { name: "grep", input: { pattern: `v${g % FILES}_1\\b` } }
          : g % 5 === 4
            ? { name: "glob", input: { pattern: `src/m${g % 10}*.ts` } }
            : { name: "read", input: { path: `src/m${(g * 7) % FILES}.ts`, offset: 1 + (g % 3) * 10, limit: 40 } };
      out.push({ text: `Step ${g}: looking at the next piece to understand how the modules fit together.`, toolCalls: [action] });
    }
    out.push({ text: `That answers it: the modules define constants in a regular pattern (turn of ${steps} steps).` });
  }
  return out;
}

/**
 * Runs a session of `turns` (steps per turn) with `cache`, through @ai-sdk/anthropic against the
 * fake server, which bills each request by the published rules as it arrives. A summary request
 * (compaction) is answered with a summary and does not advance the script.
 */
export async function runCodingSession(
  dir: string,
  turns: number[],
  options: { cache?: CacheSetting; wrap?: (model: LanguageModelV4) => LanguageModelV4; /** The idle time between turns; default 90 s. */ gapMs?: number } = {},
): Promise<SessionRun> {
  const script = sessionScript(turns);
  let clock = 0;
  let next = 0;
  const times: number[] = [];
  const server = await startFakeAnthropic(
    (body) => {
      clock += REQUEST_MS;
      times.push(clock);
      if (JSON.stringify((body.messages as unknown[]).at(-1)).includes("handover summary")) return { text: "Summary: the modules were read; nothing is left to do." };
      return script[next++] ?? { text: "done" };
    },
    { simulator: new AnthropicCacheSimulator(), now: () => clock },
  );
  try {
    const anthropic = createAnthropic({ baseURL: server.url, apiKey: "bench" })("claude-sonnet-4-5");
    const model = options.wrap ? options.wrap(anthropic) : anthropic;
    const agent = createAgent({ model, cwd: dir, dataDir: join(dir, `.data-${Date.now()}-${Math.random()}`), snapshots: false, cache: options.cache ?? true });
    const session = await agent.sessions.create();
    for (let t = 0; t < turns.length; t++) {
      if (t > 0) clock += options.gapMs ?? BETWEEN_TURNS_MS;
      const result = await agent.prompt(session.id, `Question ${t + 1}: how do the modules in src fit together?`);
      if (result.info.error) throw new Error(`turn ${t + 1} failed: ${result.info.error.message}`);
    }
    await agent.close();
    return { requests: server.requests.map((body, i) => ({ body, at: times[i]! })), usages: server.usages };
  } finally {
    await server.close();
  }
}

/** The body without any cache_control (what a request looks like with caching off). */
export function withoutBreakpoints(body: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(body), (key, value: unknown) => (key === "cache_control" ? undefined : value)) as Record<string, unknown>;
}

const EPHEMERAL = { type: "ephemeral" };

/**
 * The same request marked by OpenCode's scheme (its `applyCaching`): the first two system messages
 * and the last two conversation messages carry `cache_control` (on their last content block, as
 * the Anthropic package sends a message-level mark); the tool definitions none.
 */
export function openCodeBreakpoints(body: Record<string, unknown>): Record<string, unknown> {
  const out = withoutBreakpoints(body);
  const system = out.system as Array<Record<string, unknown>> | undefined;
  for (const block of system?.slice(0, 2) ?? []) block.cache_control = EPHEMERAL;
  const messages = out.messages as Array<{ content: Array<Record<string, unknown>> | string }>;
  for (const message of messages.slice(-2)) {
    if (typeof message.content === "string") message.content = [{ type: "text", text: message.content }];
    const last = message.content.at(-1);
    if (last) last.cache_control = EPHEMERAL;
  }
  return out;
}

/** The input a session's requests are billed, in tokens at the input price, when marked by `scheme`. */
export function billedUnder(requests: SentRequest[], scheme: (body: Record<string, unknown>) => Record<string, unknown>): { billed: number; uncached: number } {
  const simulator = new AnthropicCacheSimulator();
  let billed = 0;
  let uncached = 0;
  for (const { body, at } of requests) {
    const usage = simulator.request(scheme(body), at);
    billed += billedInput(usage);
    uncached += usage.total;
  }
  return { billed, uncached };
}
