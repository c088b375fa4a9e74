import { serveLocally } from "./local-server.ts";

/** One scripted HTTP answer of the fake OpenAI-compatible server. */
export type ServerTurn =
  | { kind: "sse"; chunks: unknown[]; /** End without `[DONE]`: "end" closes the response cleanly, "reset" destroys the socket. */ cut?: "end" | "reset"; delayMs?: number }
  | { kind: "error"; status: number; body: unknown; headers?: Record<string, string> };

/** A local HTTP server that speaks OpenAI's chat-completions streaming protocol from a script. */
export interface FakeOpenAIServer {
  url: string;
  /** Request bodies received, parsed. */
  requests: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startFakeOpenAI(script: ServerTurn[]): Promise<FakeOpenAIServer> {
  const requests: Array<Record<string, unknown>> = [];
  let index = 0;
  const server = await serveLocally(async (body, res) => {
    requests.push(JSON.parse(body) as Record<string, unknown>);
    const turn = script[index++];
    if (!turn) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "script exhausted" } }));
      return;
    }
    if (turn.kind === "error") {
      res.writeHead(turn.status, { "content-type": "application/json", ...turn.headers });
      res.end(JSON.stringify(turn.body));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    for (const chunk of turn.chunks) {
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (turn.delayMs) await new Promise((r) => setTimeout(r, turn.delayMs));
    }
    if (turn.cut === "reset") {
      // Let the written chunks reach the client before the connection drops.
      await new Promise((r) => setTimeout(r, 50));
      res.destroy();
      return;
    }
    if (turn.cut === "end") {
      res.end();
      return;
    }
    res.write("data: [DONE]\n\n");
    res.end();
  });
  return { url: server.url, requests, close: () => server.close() };
}

const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1_700_000_000, model: "local-model" };

/** Chunks of a streamed text answer, split into pieces of `size` characters. */
export function textChunks(text: string, size = 5): unknown[] {
  const out: unknown[] = [{ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }];
  for (let i = 0; i < text.length; i += size) {
    out.push({ ...base, choices: [{ index: 0, delta: { content: text.slice(i, i + size) }, finish_reason: null }] });
  }
  return out;
}

/** Chunks of one tool call whose JSON arguments arrive split over several chunks. */
export function toolCallChunks(id: string, name: string, args: unknown, pieces = 4, index = 0): unknown[] {
  const json = JSON.stringify(args);
  const size = Math.ceil(json.length / pieces);
  const out: unknown[] = [
    { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id, type: "function", function: { name, arguments: "" } }] }, finish_reason: null }] },
  ];
  for (let i = 0; i < json.length; i += size) {
    out.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: json.slice(i, i + size) } }] }, finish_reason: null }] });
  }
  return out;
}

/** The closing chunks: a finish reason and usage. */
export function finishChunks(reason: "stop" | "tool_calls" | "length" | "content_filter", usage = { prompt: 20, completion: 10, cached: 0 }): unknown[] {
  return [
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: reason }] },
    {
      ...base,
      choices: [],
      usage: {
        prompt_tokens: usage.prompt,
        completion_tokens: usage.completion,
        total_tokens: usage.prompt + usage.completion,
        prompt_tokens_details: { cached_tokens: usage.cached },
      },
    },
  ];
}
