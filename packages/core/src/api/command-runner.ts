import type { LanguageModel } from "ai";
import { bashTool, type Tool, type ToolContext } from "@lathe/tools";
import { InvalidInputError, SessionNotFoundError } from "../errors.js";
import type { TurnRequest } from "../loop/prompt-loop.js";
import { referenceToolContext } from "../loop/user-message.js";
import { activeMode, enterMode } from "../loop/turn-mode.js";
import { modelRef } from "../context/model-info.js";
import type { PromptInput, PromptOptions } from "../options.js";
import type { AgentRuntime } from "../loop/runtime.js";
import type { Command, CommandCatalog } from "../agents/command-catalog.js";
import { commandArguments, expandTemplate } from "../agents/command-template.js";
import { nameProblem } from "../agents/definition-dirs.js";
import { askForLinkedDefinition, frontMatterAgent } from "../agents/project-trust.js";
import { isTrusted } from "../agents/workspace-trust.js";

/** The agent a subtask runs with when its command names none. */
const DEFAULT_SUBAGENT = "general";

/** What an invocation turns into: the prompt to answer and its options. */
export interface CommandPrompt {
  input: PromptInput;
  options: PromptOptions;
}

/**
 * The command of that name (a leading `/`, as users type it, is allowed); an `InvalidInputError` for
 * a name that is not a command name or names none.
 */
export async function findCommand(catalog: CommandCatalog, typed: string): Promise<Command> {
  const name = typed.startsWith("/") ? typed.slice(1) : typed;
  const bad = nameProblem(name);
  if (bad) throw new InvalidInputError(`Not a command: ${bad}.`);
  const { commands } = await catalog.discover();
  const command = commands.find((c) => c.name === name);
  if (!command) throw new InvalidInputError(`There is no command named "${name}". Known commands: ${commands.map((c) => c.name).join(", ") || "none"}.`);
  return command;
}

/**
 * Turns an invocation into a prompt: the template expanded with the arguments, each `` !`cmd` ``
 * block run by the bash tool (asked under the bash rules of the answering agent and the session's
 * mode, stopped at the bash tool's timeout) and replaced by its output. The prompt's `@file`
 * references are expanded by the turn like any prompt's. With `subtask`, the prompt becomes a
 * `subtask` part for the command's agent (default `general`), which the turn hands to the task tool.
 *
 * A shell block that is denied or rejected rejects with the permission engine's error; nothing is stored then.
 */
export async function commandPrompt(
  rt: AgentRuntime,
  command: Command,
  args: string | readonly string[] | undefined,
  options: PromptOptions,
  shell: { sessionID: string; signal: AbortSignal },
): Promise<CommandPrompt> {
  const named = frontMatterAgent(command, isTrusted(rt.options.trust));
  const agent = command.subtask ? (options.agent ?? "build") : (options.agent ?? named ?? "build");
  rt.agents.get(agent);
  const bash = shellTool(rt);
  const context: ToolContext = { ...referenceToolContext(rt, shell.sessionID, "", agent, shell.signal), callID: `command_${command.name}` };
  await askForLinkedDefinition(command, rt.cwd, context);
  const text = await expandTemplate(command.template, commandArguments(args), async (cmd) => {
    const result = await bash.execute({ command: cmd, description: `/${command.name}: ${cmd}` }, context);
    return result.output;
  });
  // A subtask's subagent answers with its own model: the command's model is for commands answered here.
  const model = command.model === undefined || command.subtask ? undefined : resolveModel(rt, command.model);
  const own: PromptOptions = { ...options, agent, ...(model && !options.model ? { model } : {}) };
  if (!command.subtask) return { input: text, options: own };
  const subagent = named ?? DEFAULT_SUBAGENT;
  rt.agents.get(subagent);
  const shown = `/${command.name}${commandArguments(args).text ? ` ${commandArguments(args).text}` : ""}`;
  return {
    input: [
      { type: "text", text: shown },
      { type: "subtask", agent: subagent, description: command.description ?? `/${command.name}`, prompt: text },
    ],
    options: own,
  };
}

/**
 * What a run of `agent.command()` does before its turn: finds the command, puts the session under
 * its mode (so shell blocks are asked under it) and expands the command into the turn's prompt.
 */
export async function commandRequest(
  rt: AgentRuntime,
  sessionID: string,
  name: string,
  args: string | readonly string[] | undefined,
  options: PromptOptions,
  signal: AbortSignal,
): Promise<Extract<TurnRequest, { kind: "prompt" }>> {
  const command = await findCommand(rt.commands, name);
  const session = await rt.storage.getSession(sessionID);
  if (!session) throw new SessionNotFoundError(sessionID);
  enterMode(rt, sessionID, activeMode(rt, session, options.mode));
  const made = await commandPrompt(rt, command, args, options, { sessionID, signal });
  if (typeof made.input === "string" && made.input.trim() === "") throw new InvalidInputError(`The command "${command.name}" expands to an empty prompt.`);
  return { kind: "prompt", input: made.input, options: made.options };
}

/**
 * A command sent to a session whose turn runs, to be steered into it (`whileBusy: "steer"`): its
 * template expanded now, its shell blocks asked under the rules of `agent` (the agent answering the
 * running turn, which the message joins). A command that needs a turn of its own — a `subtask`, or
 * one naming its own agent or model — is refused with an `InvalidInputError` saying to queue it.
 */
export async function steeredCommandInput(
  rt: AgentRuntime,
  sessionID: string,
  name: string,
  args: string | readonly string[] | undefined,
  agent: string,
  signal: AbortSignal,
): Promise<PromptInput> {
  const command = await findCommand(rt.commands, name);
  const own = command.subtask ? "is a subtask" : command.model !== undefined ? "names its own model" : frontMatterAgent(command, isTrusted(rt.options.trust)) !== undefined ? "names its own agent" : undefined;
  if (own) throw new InvalidInputError(`The command "${command.name}" ${own}, which needs a turn of its own: queue it (whileBusy: "queue") instead of steering it.`);
  const made = await commandPrompt(rt, command, args, { agent }, { sessionID, signal });
  if (typeof made.input === "string" && made.input.trim() === "") throw new InvalidInputError(`The command "${command.name}" expands to an empty prompt.`);
  return made.input;
}

/** The bash tool shell blocks run with: the agent's own (its timeout, sandbox and environment), else the default one. */
function shellTool(rt: AgentRuntime): Tool {
  return rt.tools.get("bash") ?? (bashTool as unknown as Tool);
}

/**
 * The model a command names: a model object as is; a name from `commands.models`; else the model of
 * the agent instance or of one of its agents whose id (or `provider/id`) is that name.
 */
export function resolveModel(rt: AgentRuntime, model: string | LanguageModel): LanguageModel {
  if (typeof model !== "string") return model;
  const named = rt.options.commands?.models?.[model];
  if (named) return named;
  const known = [rt.options.model, ...rt.agents.list().map((a) => a.model)].filter((m): m is LanguageModel => m !== undefined);
  for (const candidate of known) {
    const ref = modelRef(candidate);
    if (ref.modelID === model || `${ref.providerID}/${ref.modelID}` === model) return candidate;
  }
  throw new InvalidInputError(`The command names the model "${model}", which this agent does not know: add it to commands.models.`);
}
