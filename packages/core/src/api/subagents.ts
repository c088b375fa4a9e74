import { z } from "zod";
import { addTokens, subtractTokens, type Session } from "@lathe/message";
import { disabled, evaluate } from "@lathe/permission";
import type { Tool } from "@lathe/tools";
import { InvalidInputError } from "../errors.js";
import { createTaskTool, type SubagentRunner } from "../agents/task-tool.js";
import type { RunResult } from "../loop/run.js";
import type { AgentRuntime } from "../loop/runtime.js";
import type { PromptOptions } from "../options.js";
import type { CreateSessionInput } from "./sessions-api.js";

/** What running a subagent task needs from the agent. */
export interface TaskHost {
  readonly runtime: AgentRuntime;
  /** Child session → parent session, while a task runs. */
  readonly parents: Map<string, string>;
  createSession(input: CreateSessionInput): Promise<Session>;
  prompt(sessionID: string, input: string, options: PromptOptions): PromiseLike<RunResult>;
}

/** The tools an agent is offered: its switches, minus those its rules deny outright, plus the task tool. */
export function offeredTools(host: TaskHost, agent: string, tools: ReadonlyMap<string, Tool>): ReadonlyMap<string, Tool> {
  const rt = host.runtime;
  const definition = rt.agents.get(agent);
  const ruleset = rt.permissions.ruleset(agent);
  const switchedOff = (name: string) => definition.tools?.[name] === false;
  const hidden = disabled([...tools.keys(), "task"], ruleset);
  const offered = new Map([...tools].filter(([name]) => !hidden.has(name) && !switchedOff(name)));
  const subagents = rt.agents.subagents().filter((a) => a.name !== agent && evaluate("task", a.name, ruleset).action !== "deny");
  // Whatever tool list the host passes (builtinTools(), MCP tools, its own), an agent that may start
  // subagents is offered the task tool, unless the agent switches it off (`tools: { task: false }`) or
  // its rules deny `task`. An empty list means no tools at all, unless an agent switches task on.
  const noTools = rt.options.tools !== undefined && rt.options.tools.length === 0;
  const wantsTask = definition.tools?.task === true || (!noTools && !switchedOff("task"));
  if (subagents.length > 0 && wantsTask && !hidden.has("task") && !offered.has("task")) {
    offered.set("task", createTaskTool(subagents, { runTask: (input) => runTask(host, input) }));
  }
  return offered;
}

/** Runs a subagent task in a child session; see {@link SubagentRunner}. */
async function runTask(host: TaskHost, input: Parameters<SubagentRunner["runTask"]>[0]): Promise<RunResult & { sessionID: string }> {
  const storage = host.runtime.storage;
  // Checked before a child session is made for it.
  const output = input.outputSchema === undefined ? undefined : taskOutputSchema(input.outputSchema);
  let child: Session | undefined;
  if (input.taskID !== undefined) {
    child = await storage.getSession(input.taskID);
    if (!child || child.parentID !== input.parentSessionID) {
      throw new InvalidInputError(`There is no task ${input.taskID} of this session to continue.`);
    }
  } else {
    child = await host.createSession({ parentID: input.parentSessionID, kind: "task", title: `${input.description} (@${input.agent})` });
  }
  const before = child.usage;
  host.parents.set(child.id, input.parentSessionID);
  input.onStart?.(child.id);
  try {
    // The child works under the parent's mode: a plan-mode turn (or the plan agent) cannot edit through a subagent.
    const permissions = host.runtime.permissions;
    const mode = input.parentAgent === undefined ? permissions.modeOf(input.parentSessionID) : permissions.modeFor(input.parentSessionID, input.parentAgent);
    const childID = child.id;
    const result = await host.runtime.tracing.subagent(input.parentSessionID, input.callID, input.agent, childID, async () =>
      host.prompt(childID, input.prompt, { agent: input.agent, signal: input.signal, mode, ...(output ? { output } : {}) }),
    );
    // Roll the child's usage (its own and its subagents') up into the parent session.
    const after = (await storage.getSession(child.id))?.usage ?? before;
    await host.runtime.updater.update(input.parentSessionID, (parent) => {
      parent.usage = {
        tokens: addTokens(parent.usage.tokens, subtractTokens(after.tokens, before.tokens)),
        cost: parent.usage.cost + (after.cost - before.cost),
        ...savedRollup(parent.usage.cacheSaved, after.cacheSaved, before.cacheSaved),
        steps: (parent.usage.steps ?? 0) + ((after.steps ?? 0) - (before.steps ?? 0)),
      };
    });
    return { ...result, sessionID: child.id };
  } finally {
    host.parents.delete(child.id);
  }
}

/**
 * The schema of a task's `output_schema`: the model's JSON schema, turned into a Zod schema so the
 * child's answer is really validated (the AI SDK's `jsonSchema()` alone would accept any value).
 */
function taskOutputSchema(schema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new InvalidInputError(`The task's output_schema is not a usable JSON schema: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The parent's `cacheSaved` with what the child's grew by added (left absent while both are). */
function savedRollup(parent: number | undefined, after: number | undefined, before: number | undefined): { cacheSaved?: number } {
  const grew = (after ?? 0) - (before ?? 0);
  return parent === undefined && grew === 0 ? {} : { cacheSaved: (parent ?? 0) + grew };
}
