import type { MessageWithParts } from "@lathe/message";
import type { TurnPlan } from "./turn-plan.js";
import { type TurnState, current, newAnswer } from "./turn-common.js";
import { closeMessage } from "./turn-usage.js";

// How a running turn takes messages steered into it. A turn is one assistant message of many steps;
// a message stored mid-turn sorts after that assistant message (ids are time-ordered), so the steps
// that follow cannot stay in it: the message is closed and the turn goes on in a new assistant
// message answering the steered one. History, UI and model then all read user → answer → user →
// answer in id order, like compaction's replay does.

/**
 * Takes the messages steered into the turn since its last step, before the next request. Ones that
 * sort before the message being written (stored before it began) join the history before it; the
 * others close that message, and the turn goes on in a new one answering the newest of them. A
 * message still without a step takes only the first kind: its first request carries them.
 * Returns whether any message was taken.
 */
export async function takeSteered(plan: TurnPlan, turn: TurnState): Promise<boolean> {
  const { rt, session } = plan;
  const recorder = turn.recorder;
  // Most steps have nothing waiting: that is known before anything is looked at.
  if (!rt.steering.has(session.id)) return false;
  const stepped = recorder.parts.some((p) => p.type === "step-finish");
  const known = new Set(turn.prior.map((m) => m.info.id));
  const steered = rt.steering.take(session.id, stepped ? undefined : recorder.message.id).filter((m) => !known.has(m.info.id));
  if (steered.length === 0) return false;
  const earlier = steered.filter((m) => m.info.id < recorder.message.id);
  const later = steered.filter((m) => m.info.id > recorder.message.id);
  if (earlier.length > 0) turn.prior = [...turn.prior, ...earlier].sort(byId);
  for (const message of earlier) rt.emit({ type: "message.steered", sessionID: session.id, messageID: message.info.id, answerID: recorder.message.id });
  if (later.length === 0) return true;
  // The finished steps stay in the message they were made in, closed like any answer.
  await closeMessage(rt, plan.writer, recorder);
  turn.prior = [...turn.prior, current(turn), ...later];
  turn.recorder = newAnswer(rt, plan.writer, session.id, later.at(-1)!.info.id, plan.agentName, plan.ref);
  for (const message of later) rt.emit({ type: "message.steered", sessionID: session.id, messageID: message.info.id, answerID: turn.recorder.message.id });
  return true;
}

function byId(a: MessageWithParts, b: MessageWithParts): number {
  return a.info.id < b.info.id ? -1 : a.info.id > b.info.id ? 1 : 0;
}
