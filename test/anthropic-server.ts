import { AnthropicCacheSimulator, type CacheSimUsage } from "@lathe/mock";
import { serveLocally } from "./local-server.ts";

// A local HTTP server that speaks Anthropic's Messages streaming protocol from a script, and bills
// each request's cache use by the published rules (AnthropicCacheSimulator) on its exact body: the
// usage the provider package reports is what the API would have reported. No vitest here: the
// benchmarks use it too.

/** One scripted answer: text, and tool calls (the step then ends with `tool_use`). */
export interface AnthropicTurn {
  text?: string;
  toolCalls?: Array<{ name: string; input: unknown }>;
  /** Output tokens reported; default the text's length / 4. */
  outputTokens?: number;
}

/** The fake server, its received bodies and what each was billed. */
export interface FakeAnthropicServer {
  /** Base URL for `createAnthropic({ baseURL })`. */
  url: string;
  requests: Array<Record<string, unknown>>;
  usages: CacheSimUsage[];
  close(): Promise<void>;
}

/**
 * Starts the server. `script` answers request `index` (a function sees the body, to answer by what
 * was asked: a summary request, say). `now` is the clock the cache's TTLs run on (default the wall clock).
 */
export async function startFakeAnthropic(
  script: AnthropicTurn[] | ((body: Record<string, unknown>, index: number) => AnthropicTurn),
  options: { simulator?: AnthropicCacheSimulator; now?: () => number } = {},
): Promise<FakeAnthropicServer> {
  const simulator = options.simulator ?? new AnthropicCacheSimulator();
  const now = options.now ?? Date.now;
  const requests: Array<Record<string, unknown>> = [];
  const usages: CacheSimUsage[] = [];
  let index = 0;
  const server = await serveLocally((text, res) => {
    const body = JSON.parse(text) as Record<string, unknown>;
    requests.push(body);
    const turn = typeof script === "function" ? script(body, index) : script[index];
    index++;
    if (!turn) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "script exhausted" } }));
      return;
    }
    const usage = simulator.request(body, now());
    usages.push(usage);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const [event, data] of turnEvents(turn, usage, String(body.model))) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    res.end();
  });
  return { url: server.url, requests, usages, close: () => server.close() };
}

let callCounter = 0;

/** The stream events of one answer, with the billed usage as Anthropic reports it. */
function turnEvents(turn: AnthropicTurn, usage: CacheSimUsage, model: string): Array<[string, unknown]> {
  const events: Array<[string, unknown]> = [];
  const written = usage.cacheWrite5m + usage.cacheWrite1h;
  events.push([
    "message_start",
    {
      type: "message_start",
      message: {
        id: "msg_fake",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          output_tokens: 1,
          cache_creation_input_tokens: written,
          cache_read_input_tokens: usage.cacheRead,
          cache_creation: { ephemeral_5m_input_tokens: usage.cacheWrite5m, ephemeral_1h_input_tokens: usage.cacheWrite1h },
        },
      },
    },
  ]);
  let block = 0;
  if (turn.text) {
    events.push(["content_block_start", { type: "content_block_start", index: block, content_block: { type: "text", text: "" } }]);
    events.push(["content_block_delta", { type: "content_block_delta", index: block, delta: { type: "text_delta", text: turn.text } }]);
    events.push(["content_block_stop", { type: "content_block_stop", index: block }]);
    block++;
  }
  for (const call of turn.toolCalls ?? []) {
    const id = `toolu_${String(++callCounter).padStart(6, "0")}`;
    events.push(["content_block_start", { type: "content_block_start", index: block, content_block: { type: "tool_use", id, name: call.name, input: {} } }]);
    events.push(["content_block_delta", { type: "content_block_delta", index: block, delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) } }]);
    events.push(["content_block_stop", { type: "content_block_stop", index: block }]);
    block++;
  }
  const output = turn.outputTokens ?? Math.max(1, Math.ceil((turn.text ?? "").length / 4) + 20 * (turn.toolCalls?.length ?? 0));
  const stop = turn.toolCalls?.length ? "tool_use" : "end_turn";
  events.push(["message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: output } }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events;
}

/**
 * The blocks of a Messages API body in cache order (tools, system, message content), each as JSON
 * without its `cache_control`, and the index of the last one that carries a breakpoint (-1: none).
 */
export function cacheBlocks(body: Record<string, unknown>): { blocks: string[]; lastBreakpoint: number } {
  const raw: unknown[] = [...((body.tools as unknown[]) ?? [])];
  const system = body.system;
  if (typeof system === "string") raw.push({ type: "text", text: system });
  else raw.push(...((system as unknown[]) ?? []));
  for (const message of (body.messages as Array<{ role: string; content: unknown }>) ?? []) {
    const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as unknown[]);
    for (const block of content) raw.push({ role: message.role, block });
  }
  let lastBreakpoint = -1;
  const blocks = raw.map((value, i) => {
    const inner = (value as { block?: unknown }).block ?? value;
    const { cache_control: control, ...rest } = inner as { cache_control?: unknown };
    if (control !== undefined) lastBreakpoint = i;
    return JSON.stringify((value as { role?: string }).role ? [(value as { role: string }).role, rest] : rest);
  });
  return { blocks, lastBreakpoint };
}
