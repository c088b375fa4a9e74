import { EventSourceParserStream } from "eventsource-parser/stream";

/** One event of a Sourcegraph streaming search (`/.api/search/stream`). */
export interface SearchEvent {
  event: string;
  data: unknown;
}

/**
 * The events of a Sourcegraph streaming search response, parsed as they arrive. Stops reading once
 * more than `maxBytes` came in (`onOversize` is told), so an endless or huge stream cannot fill memory.
 */
export async function* searchEvents(body: ReadableStream<Uint8Array>, maxBytes: number, onOversize: () => void): AsyncGenerator<SearchEvent> {
  let bytes = 0;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const room = maxBytes - bytes;
        bytes += chunk.byteLength;
        if (bytes > maxBytes) {
          // Whole events before the limit still count; the one cut in two is dropped by the parser.
          if (room > 0) controller.enqueue(chunk.subarray(0, room));
          onOversize();
          controller.terminate();
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  const events = counted.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      let data: unknown;
      try {
        data = JSON.parse(value.data);
      } catch {
        data = value.data;
      }
      yield { event: value.event ?? "message", data };
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
