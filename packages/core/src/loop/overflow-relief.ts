import { modelView, selectTail, tailBudget, type ModelRef } from "@lathe/message";
import { COMPACTION_AGENT, pruneToolOutputs, replayOf, summarise, type CompactionContext } from "./compaction.js";
import type { AgentRuntime } from "./runtime.js";
import { SessionWriter } from "../session/session-writer.js";
import { closeMessage } from "./turn-usage.js";
import { type TurnState, current, overflowError, fail, newAnswer } from "./turn-common.js";

/**
 * Makes room when the next request would overflow: old tool outputs are pruned first; when that is
 * not enough the history is summarised, the message in progress is closed (finish `compacted`) and
 * the turn goes on in a new message answering a replay of the user's request. Returns false when the
 * turn must end: a summary that fails, or a history still too long right after a compaction.
 */
export async function relieveOverflow(
  rt: AgentRuntime,
  writer: SessionWriter,
  turn: TurnState,
  ctx: CompactionContext,
  at: {
    agent: string;
    ref: ModelRef;
    usable: number | undefined;
    estimate: number;
    /** The provider rejected the request as too long (our estimate of it is `estimate`). */
    rejected?: boolean;
  },
): Promise<boolean> {
  const recorder = turn.recorder;
  const view = modelView([...turn.prior, current(turn)]);
  const freed = await pruneToolOutputs(ctx, view);
  if (freed > 0 && at.usable !== undefined && at.estimate - freed < at.usable) return true;
  if (turn.justCompacted) {
    fail(rt, recorder, overflowError(undefined));
    return false;
  }
  const request = view.findLast((m) => m.info.role === "user" && m.info.agent !== COMPACTION_AGENT);
  // A rejected request bounds the window from above even when its size is unknown: the tail fits it.
  const window = Math.min(at.usable ?? Number.POSITIVE_INFINITY, at.rejected ? at.estimate : Number.POSITIVE_INFINITY);
  const tail = selectTail(view, { budgetTokens: tailBudget(window), ...(request ? { before: request.info.id } : {}) });
  const { user, summary } = await summarise(ctx, view, { auto: true, tail, ...(at.rejected ? { rejected: at.estimate } : {}) });
  if (summary.info.error) {
    fail(rt, recorder, summary.info.error);
    return false;
  }
  recorder.message.finish = "compacted";
  await closeMessage(rt, writer, recorder);
  const prior = [...turn.prior, current(turn), user, summary];
  let parentID = user.info.id;
  if (request) {
    const replay = replayOf(request, recorder.message.sessionID);
    writer.message(replay.info);
    for (const part of replay.parts) writer.part(part);
    rt.emit({ type: "message.updated", sessionID: replay.info.sessionID, message: structuredClone(replay.info) });
    for (const part of replay.parts) rt.emit({ type: "message.part.updated", sessionID: part.sessionID, part: { ...part } });
    prior.push(replay);
    parentID = replay.info.id;
  }
  turn.prior = prior;
  turn.recorder = newAnswer(rt, writer, recorder.message.sessionID, parentID, at.agent, at.ref);
  turn.justCompacted = true;
  await writer.flush();
  return true;
}
