import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { createId, type MessageWithParts, type Part, type Session, type UserMessage } from "@lathe/message";
import { permissionPath, resolveToolPath, type ToolContext } from "@lathe/tools";
import { evaluate } from "@lathe/permission";
import { runHooks } from "../agents/hooks.js";
import { expandReferences } from "../agents/references.js";
import { FileUrlRefusedError, InvalidInputError } from "../errors.js";
import { requestFields } from "../agents/agent-permissions.js";
import type { PromptInput, PromptOptions } from "../options.js";
import type { AgentRuntime } from "./runtime.js";
import { stateAccessor } from "./tool-state.js";
import { sessionDataDir } from "./turn-common.js";

// A user message as a prompt makes it: its parts, attached files read in, the files and agents it
// references expanded, the `chat.message` hooks run. A new turn's prompt, a steered message and a
// queued one (when its turn starts) are all made here.

/** What the caller fixes on the message besides the prompt: its id, mode, model, environment. */
type MessageFields = Partial<Pick<UserMessage, "id" | "mode" | "model" | "environment">>;

/**
 * Makes the user message of a prompt. A `chat.message` hook that throws does not stop it: its error
 * is returned with the message (a new turn stores the message and ends with that error).
 */
export async function buildUserMessage(
  rt: AgentRuntime,
  sessionID: string,
  agentName: string,
  input: PromptInput,
  options: PromptOptions,
  signal: AbortSignal,
  fields: MessageFields = {},
): Promise<{ user: MessageWithParts & { info: UserMessage }; hookError: unknown }> {
  const user = userMessage(sessionID, agentName, input, options, fields.id);
  if (fields.mode !== undefined) user.info.mode = fields.mode;
  if (fields.model !== undefined) user.info.model = fields.model;
  await inlineLocalFiles(user.parts, rt.options.fileUrls === true, referenceToolContext(rt, sessionID, user.info.id, agentName, signal));
  // References are expanded in what the user typed: the prompt string, or each text part given (not
  // synthetic ones), a file or agent named twice expanded once.
  const typed = typeof input === "string" ? [input] : input.flatMap((p) => (p.type === "text" && !p.synthetic ? [p.text] : []));
  const offersTask = rt.toolsFor(agentName).has("task");
  const context = {
    cwd: rt.cwd,
    agents: rt.agents,
    toolContext: referenceToolContext(rt, sessionID, user.info.id, agentName, signal),
    canDelegate: (name: string) => offersTask && name !== agentName && evaluate("task", name, rt.permissions.ruleset(agentName)).action !== "deny",
  };
  const expandedOnce = new Set<string>();
  for (const text of typed) {
    for (const part of await expandReferences(text, context)) {
      const key = part.type === "agent" ? `agent:${part.name}` : part.type === "file" && part.source ? `file:${part.source.path}` : undefined;
      if (key !== undefined && expandedOnce.has(key)) continue;
      if (key !== undefined) expandedOnce.add(key);
      user.parts.push({ ...part, id: createId("part"), sessionID, messageID: user.info.id } as Part);
    }
  }
  if (fields.environment !== undefined) user.info.environment = fields.environment;
  let hookError: unknown;
  try {
    await runHooks(rt.hooks, "chat.message", { sessionID, agent: agentName }, { message: user.info, parts: user.parts });
  } catch (error) {
    hookError = error;
  }
  return { user, hookError };
}

/** Takes a queue entry out of the session (see `Session.queue`). */
export function dequeue(session: Session, entryID: string): void {
  const left = (session.queue ?? []).filter((entry) => entry.id !== entryID);
  if (left.length > 0) session.queue = left;
  else delete session.queue;
}

/**
 * Reads attached `file:` URLs into `data:` URLs, so the stored message carries the file itself: a
 * provider cannot fetch a local path, and the file may change or vanish before the session resumes.
 * Only when the host allows them (`fileUrls`; `agent.prompt` refuses them otherwise), and each only
 * after the asks the `read` tool makes for its real path: `external_directory` outside the workspace,
 * then `read` — so `.env` or another tenant's folder is never read without the rules' consent.
 */
async function inlineLocalFiles(parts: Part[], allowed: boolean, ctx: ToolContext): Promise<void> {
  for (const part of parts) {
    if (part.type !== "file" || !/^file:/i.test(part.url.trim())) continue;
    if (!allowed) throw new FileUrlRefusedError(part.url);
    let path: string;
    try {
      path = fileURLToPath(part.url.trim());
    } catch (error) {
      throw new InvalidInputError(`The attached file URL ${part.url} is not a local path: ${error instanceof Error ? error.message : String(error)}`);
    }
    const target = await resolveToolPath(ctx, path);
    await ctx.ask({ permission: "read", patterns: [permissionPath(target)] });
    const bytes = await readFile(target.absolute).catch((error: unknown) => {
      throw new InvalidInputError(`The attached file ${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    });
    part.url = `data:${part.mime};base64,${bytes.toString("base64")}`;
    part.filename ??= basename(path);
  }
}

/**
 * A tool context for reading the files a prompt references. Reads go through the agent's rules like
 * any other (a host relaying remote users' prompts must not leak `.env` or files outside the workspace).
 */
export function referenceToolContext(rt: AgentRuntime, sessionID: string, messageID: string, agent: string, signal: AbortSignal): ToolContext {
  return {
    sessionID,
    messageID,
    callID: "reference",
    agent,
    cwd: rt.cwd,
    abort: signal,
    ask: (request) => rt.permissions.ask({ sessionID, agent, ...requestFields(request), signal }),
    metadata: () => {},
    emit: () => {},
    dataDir: sessionDataDir(rt, sessionID),
    state: stateAccessor(rt.sessionState(sessionID)),
    ...(rt.options.files ? { files: rt.options.files } : {}),
  };
}

function userMessage(
  sessionID: string,
  agent: string,
  input: PromptInput,
  options: PromptOptions,
  id?: string,
): { info: UserMessage; parts: Part[] } {
  const info: UserMessage = {
    id: id ?? options.messageID ?? createId("message"),
    sessionID,
    role: "user",
    time: { created: Date.now() },
    agent,
    ...(options.system ? { system: options.system } : {}),
  };
  const items = typeof input === "string" ? [{ type: "text" as const, text: input }] : input;
  const base = () => ({ id: createId("part"), sessionID, messageID: info.id });
  const parts: Part[] = items.map((item) =>
    item.type === "text"
      ? { ...base(), type: "text", text: item.text, ...(item.synthetic ? { synthetic: true } : {}) }
      : item.type === "subtask"
        ? { ...base(), type: "subtask", agent: item.agent, description: item.description, prompt: item.prompt }
        : { ...base(), type: "file", url: item.url, mime: item.mime, ...(item.filename ? { filename: item.filename } : {}) },
  );
  return { info, parts };
}
