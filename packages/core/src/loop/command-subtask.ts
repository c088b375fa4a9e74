import { createId, type Part, type ToolPart } from "@lathe/message";
import type { AgentRuntime } from "./runtime.js";
import type { ToolCall } from "./tool-runner.js";
import { erroredState } from "./tool-state.js";
import type { TurnRecorder } from "./turn-recorder.js";

/**
 * The `task` calls a turn makes before its first step, one per `subtask` part of the user's message
 * (a command with `subtask: true`): each is recorded as a call of the answering agent's `task` tool
 * and runs through it — the `task` permission asked under the agent's rules — so the subagent works
 * in a child session and its answer comes back as the call's result, which the model then reads.
 * A subtask the agent cannot start (no `task` tool offered to it) is recorded as a failed call.
 */
export function subtaskCalls(rt: AgentRuntime, recorder: TurnRecorder, userParts: readonly Part[], agent: string): ToolCall[] {
  const task = rt.toolsFor(agent).get("task");
  const calls: ToolCall[] = [];
  for (const part of userParts) {
    if (part.type !== "subtask") continue;
    const input = { description: part.description, prompt: part.prompt, subagent: part.agent };
    const call = recorder.add<ToolPart>({ type: "tool", callID: createId("tool"), tool: "task", state: { status: "pending", input, raw: JSON.stringify(input) } });
    if (task) {
      calls.push({ part: call, tool: task, input });
      continue;
    }
    call.state = erroredState(call.state, `The ${agent} agent has no task tool, so the ${part.agent} subagent could not be started.`);
    recorder.changed(call);
  }
  return calls;
}
