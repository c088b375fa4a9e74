// Reading server-sent events in the tests of examples/server.
import { parseJsonEventStream, uiMessageChunkSchema, type UIMessageChunk } from "ai";

/** One server-sent event: its name, its parsed data, and its id when it has one. */
export interface Sse {
  event: string;
  id?: string;
  data: any;
}

/** Reads a server-sent-events response event by event. */
export async function* events(response: Response): AsyncGenerator<Sse> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    yield* parse();
  } finally {
    await reader.cancel().catch(() => {});
  }
  async function* parse(): AsyncGenerator<Sse> {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
        const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
        const id = /^id: (.*)$/m.exec(block)?.[1];
        yield { event, data: data ? JSON.parse(data) : undefined, ...(id !== undefined ? { id } : {}) };
      }
    }
  }
}

/** Reads events up to and including the first that matches; the stream stays open for more. */
export async function until(stream: AsyncGenerator<Sse>, match: (event: Sse) => boolean): Promise<Sse> {
  for (;;) {
    const { value, done } = await stream.next();
    if (done) throw new Error("the stream ended first");
    if (match(value)) return value;
  }
}


/** The token the tests give examples/server (`startServer({ token })`). */
export const TEST_TOKEN = "test-token-of-examples-server";

/**
 * `fetch` as the examples/server API wants it: the token, and a JSON body type on requests with a
 * body (POST) — what a well-behaved client sends. Headers given in `init` win.
 */
export function api(url: string, init: RequestInit = {}, token = TEST_TOKEN): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
  if (init.method === "POST" && !headers.has("content-type")) headers.set("content-type", "application/json");
  return fetch(url, { ...init, headers });
}

/** A UI message stream response (useChat's protocol) as its chunks. */
export function uiChunks(response: Response): ReadableStream<UIMessageChunk> {
  return parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(result, controller) {
        if (!result.success) throw result.error;
        controller.enqueue(result.value as UIMessageChunk);
      },
    }),
  );
}
