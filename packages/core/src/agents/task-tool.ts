import { z } from "zod";
import { defineTool, type Tool } from "@lathe/tools";
import type { AgentDefinition } from "./registry.js";
import type { AssistantMessage, Part } from "@lathe/message";

/**
 * What the task tool needs from the agent: start or continue a child session's turn. Its result is a
 * run's result (a `RunResult`) with the child's session id, spelt out so agents/ need not import loop/.
 */
export interface SubagentRunner {
  /**
   * Runs `prompt` with `agent` in a child session of `parentSessionID` — a new one, or `taskID` to
   * continue an earlier task — and resolves with the child's final message. The child's events reach
   * the parent's run; aborting `signal` aborts the child.
   */
  runTask(input: {
    parentSessionID: string;
    /** The agent that started the task: the child works under the mode that agent works under. */
    parentAgent?: string | undefined;
    taskID?: string | undefined;
    agent: string;
    description: string;
    prompt: string;
    /** A JSON schema the child's final answer must match (the task's `output_schema`). */
    outputSchema?: Record<string, unknown> | undefined;
    /** The id of the task call, so the child's trace hangs under it. */
    callID?: string | undefined;
    signal: AbortSignal;
    onStart?: (childSessionID: string) => void;
  }): Promise<{ info: AssistantMessage; parts: Part[]; sessionID: string; output?: unknown }>;
}

const TaskParameters = z.object({
  description: z.string().min(1).describe("A short (3–5 words) description of the task."),
  prompt: z.string().min(1).describe("The task for the subagent: self-contained, with everything it needs to know."),
  subagent: z.string().min(1).describe("Which subagent does the task."),
  task_id: z.string().optional().describe("Continue an earlier task: the task_id a previous task call returned."),
  output_schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("A JSON schema the subagent's final answer must match; the task result is then that JSON value, validated."),
});

/**
 * The `task` tool of one agent: hands a self-contained task to a subagent, which works in a child
 * session and answers with its final text. Its description lists only the subagents the calling
 * agent may start (those its `task` rules do not deny).
 */
export function createTaskTool(subagents: AgentDefinition[], runner: SubagentRunner): Tool<typeof TaskParameters> {
  const names = subagents.map((a) => a.name);
  const list = subagents.map((a) => `- ${a.name}: ${a.description}`).join("\n");
  return defineTool({
    name: "task",
    description: `Hand a self-contained task to a subagent, which works on it in its own session and returns its final answer.
Start several tasks in one step to run them in parallel. Pass the returned task_id again to continue the same task.
Available subagents:
${list}`,
    parameters: TaskParameters,
    // Parallel with other read-only calls of a step: each child works in its own session.
    readOnly: true,
    async execute(args, ctx) {
      if (!names.includes(args.subagent)) {
        throw new Error(`There is no subagent "${args.subagent}" available to this agent. Choose one of: ${names.join(", ")}.`);
      }
      await ctx.ask({ permission: "task", patterns: [args.subagent], always: [args.subagent], metadata: { description: args.description } });
      const result = await runner.runTask({
        parentSessionID: ctx.sessionID,
        parentAgent: ctx.agent,
        taskID: args.task_id,
        agent: args.subagent,
        description: args.description,
        prompt: args.prompt,
        outputSchema: args.output_schema,
        callID: ctx.callID,
        signal: ctx.abort,
        onStart: (sessionID) => ctx.metadata({ title: args.description, metadata: { sessionID, agent: args.subagent } }),
      });
      const text = result.parts.flatMap((p) => (p.type === "text" && !p.synthetic ? [p.text] : [])).join("\n\n").trim();
      if (result.info.finish === "budget") {
        // The turn that started this task stops too (its budget tracker was told); the model sees why.
        throw new Error(`The ${args.subagent} subagent stopped (task_id: ${result.sessionID}): ${result.info.error?.message ?? "a budget was reached."}`);
      }
      if (result.info.error) {
        throw new Error(`The ${args.subagent} subagent failed (task_id: ${result.sessionID}): ${result.info.error.message}${text ? `\nIts partial answer:\n${text}` : ""}`);
      }
      // With an output schema the result is the validated JSON, not the answer's prose.
      const answer = args.output_schema !== undefined ? JSON.stringify(result.output) : text;
      return {
        title: args.description,
        output: `task_id: ${result.sessionID}\n\n<task_result>\n${answer}\n</task_result>`,
        metadata: {
          task_id: result.sessionID,
          sessionID: result.sessionID,
          agent: args.subagent,
          ...(args.output_schema !== undefined ? { output: result.output } : {}),
        },
      };
    },
  });
}
