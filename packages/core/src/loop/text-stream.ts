import type { AgentEvent } from "../events.js";

/**
 * The assistant's words in a run's events: the `delta` of each streamed `text` part of the run's own
 * session, in order. Everything else a delta can carry is left out — reasoning, tool-call input
 * (a whole file, for a `write`), subagent sessions' text and compaction summaries — so a terminal
 * that prints this shows only what the assistant says.
 */
export async function* assistantText(events: AsyncIterable<AgentEvent>, sessionID: string): AsyncGenerator<string, void, undefined> {
  // A summary message is announced (`message.updated`) before its first part streams.
  const summaries = new Set<string>();
  for await (const event of events) {
    if (event.sessionID !== sessionID) continue;
    if (event.type === "message.updated") {
      if (event.message.role === "assistant" && event.message.summary) summaries.add(event.message.id);
      continue;
    }
    if (event.type !== "message.part.updated" || !event.delta) continue;
    if (event.part.type === "text" && !summaries.has(event.part.messageID)) yield event.delta;
  }
}
