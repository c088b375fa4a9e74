// Worker mode of the service: prompts become jobs of a @lathe/queue, run by worker processes, and
// every stream reads the session's event log — so any HTTP process serves any session, whichever
// worker runs it. Each server-sent event carries the event's number as its `id`: a client that
// reconnects with `Last-Event-ID` resumes without gaps or repeats.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { endsRun, rejoinRun, type Agent, type AgentEvent, type RejoinedRun } from "@lathe/core";
import type { TurnQueue } from "@lathe/queue";

const sse = (seq: number, event: AgentEvent) => ({ id: String(seq), event: event.type, data: JSON.stringify(event) });

/** Enqueues a prompt and streams the session's events until its job is done, then `done` with the answer (or `waiting` for approval). */
export async function streamQueuedPrompt(
  c: Context,
  queue: TurnQueue,
  agent: Agent,
  sessionID: string,
  input: { text: string },
): Promise<Response> {
  const after = await queue.events().last(sessionID);
  const jobID = await queue.enqueuePrompt(sessionID, input.text);
  return streamSSE(c, async (stream) => {
    const controller = new AbortController();
    stream.onAbort(() => controller.abort());
    for await (const { seq, event } of queue.subscribe(sessionID, { after, signal: controller.signal })) {
      await stream.writeSSE(sse(seq, event));
      if (event.type !== "session.status" || event.status.type !== "idle") continue;
      // The worker completes the job right after its last events: give it a moment.
      for (let i = 0; i < 50; i++) {
        const outcome = await queue.outcome(jobID);
        if (outcome?.state === "completed") {
          const output = outcome.output;
          if (output?.state === "waiting") await stream.writeSSE({ event: "waiting", data: JSON.stringify(output) });
          else {
            const messages = await agent.sessions.messages(sessionID);
            const answer = messages.find((m) => m.info.role === "assistant" && output?.state === "answered" && m.info.parentID === output.messageID);
            await stream.writeSSE({ event: "done", data: JSON.stringify(answer ?? output ?? {}) });
          }
          controller.abort();
          return;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  });
}

/** Every event of the session from the client's cursor (`Last-Event-ID`, or `?after=`), else from now on. */
export async function streamQueuedEvents(c: Context, queue: TurnQueue, sessionID: string, cursor: number | undefined): Promise<Response> {
  const after = cursor ?? (await queue.events().last(sessionID));
  return streamSSE(c, async (stream) => {
    const controller = new AbortController();
    stream.onAbort(() => controller.abort());
    await stream.writeSSE({ event: "ready", data: JSON.stringify({ sessionID, after }) });
    for await (const { seq, event } of queue.subscribe(sessionID, { after, signal: controller.signal })) await stream.writeSSE(sse(seq, event));
  });
}

/**
 * The session's run in progress as the queue's event log holds it — the events after the session's
 * last `idle` status, if a `busy` one came since — replayed, then live until it ends. Undefined when
 * no worker runs the session.
 */
export async function rejoinQueuedRun(queue: TurnQueue, sessionID: string, signal: AbortSignal): Promise<RejoinedRun | undefined> {
  let start = 0;
  let running = false;
  for (let after = 0; ; ) {
    const page = await queue.events().read<AgentEvent>(sessionID, after, 5_000);
    for (const { seq, event } of page) {
      if (endsRun(sessionID, event)) {
        start = seq;
        running = false;
      } else if (event.type === "session.status" && event.sessionID === sessionID && event.status.type === "busy") running = true;
    }
    if (page.length < 5_000) break;
    after = page.at(-1)!.seq;
  }
  if (!running) return undefined;
  return rejoinRun(sessionID, queue.subscribe(sessionID, { after: start, signal }));
}
