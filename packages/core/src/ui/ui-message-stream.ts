import type { AgentEvent } from "../events.js";
import type { AssistantMessage } from "@lathe/message";
import { Run } from "../loop/run.js";
import type { RejoinedRun } from "../session/rejoined-run.js";
import { UIChunkTranslator, type LatheUIMessageChunk } from "./ui-chunks.js";
import { messageMetadata, uiFinishReason } from "./ui-parts.js";

/**
 * A run as the AI SDK's UI message stream — what `useChat` reads and `readUIMessageStream`
 * assembles into a `UIMessage`. The answer streams as one message with the id of the stored
 * assistant message: `start`, then per step `start-step`, text and reasoning (`*-start`, `*-delta`,
 * `*-end`), tool calls (`tool-input-start`/`-delta`/`-available`, then `tool-output-available`,
 * `tool-output-error` or — when the user rejected it — `tool-output-denied`), `finish-step`; and
 * `finish` with the message's metadata (finish, model, usage, cost) once the run is over.
 *
 * A call waiting for approval sends `tool-approval-request` (its `approvalId` is the permission
 * request's id); the answer, from any client, follows as `tool-approval-response` — answer with
 * {@link replyToUIApprovals}. Lathe's own facts come as data parts: `data-patch` and `data-steer`
 * (a message the user steered into the turn, where it entered; both kept in the message) and transient `data-permission` (the request, with an edit's diff), `data-retry`,
 * `data-file-edited`, `data-todos`, `data-status`, `data-compaction`. A retried request's output
 * taken back is a `reset-step` followed by the step's remaining parts. A failed answer ends with an
 * `error` chunk, an aborted one with `abort`. Subagent sessions are left out, but for their approval
 * requests, which come as transient `data-permission` parts.
 *
 * The stream ends when the run does. Cancelling it (a client that leaves) stops reading, not the
 * run: call `run.abort()` to stop the run.
 *
 * A client that joins late — `useChat`'s `resume`, a second tab, a reload — gets the same stream
 * from `toUIMessageStream(agent.sessions.rejoin(sessionID))`: the run's events replayed from its
 * start, then live. Each tool call is one part at every moment, whatever the step framing: its
 * input, approval and output chunks all land in the step that started it.
 *
 * @example
 * ```ts
 * import { readUIMessageStream } from "ai";
 * import { createAgent, toUIMessageStream } from "@lathe/core";
 * declare const agent: ReturnType<typeof createAgent>;
 * const run = agent.prompt("ses_1", "Fix the failing test");
 * for await (const message of readUIMessageStream({ stream: toUIMessageStream(run) })) {
 *   console.log(message.parts.length);
 * }
 * ```
 */
export function toUIMessageStream(run: Run | RejoinedRun): ReadableStream<LatheUIMessageChunk> {
  const translator = new UIChunkTranslator(run.sessionID);
  const events = run[Symbol.asyncIterator]();
  return new ReadableStream<LatheUIMessageChunk>(
    {
      async pull(controller) {
        // Read events until one gives the client something, so each pull makes progress.
        for (;;) {
          let next: IteratorResult<AgentEvent>;
          try {
            next = await events.next();
          } catch (error) {
            for (const chunk of translator.finish(undefined, errorMessage(error))) controller.enqueue(chunk);
            controller.enqueue({ type: "finish" });
            controller.close();
            return;
          }
          if (next.done) {
            // A run says how it ended; a rejoined run's answer is the last version its events showed.
            const info: AssistantMessage | undefined = run instanceof Run ? (await run).info : translator.answerInfo;
            for (const chunk of translator.finish(info)) controller.enqueue(chunk);
            const finishReason = info ? uiFinishReason(info.finish) : undefined;
            controller.enqueue({ type: "finish", ...(finishReason ? { finishReason } : {}), ...(info ? { messageMetadata: messageMetadata(info) } : {}) });
            controller.close();
            return;
          }
          const chunks = translator.translate(next.value);
          if (chunks.length === 0) continue;
          for (const chunk of chunks) controller.enqueue(chunk);
          return;
        }
      },
      async cancel() {
        await events.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
