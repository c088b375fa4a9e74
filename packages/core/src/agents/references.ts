import { stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Part } from "@lathe/message";
import { listTool, readTool, type ToolContext } from "@lathe/tools";
import type { AgentRegistry } from "./registry.js";

type NewPart = Part extends infer P ? (P extends Part ? Omit<P, "id" | "sessionID" | "messageID"> : never) : never;

// `@` preceded by start, space or an opening bracket/quote (not a word character, so emails pass),
// followed by a path-like token. Trailing sentence punctuation is not part of the reference.
const REFERENCE = /(^|[\s(["'])@([\w./~-][\w./~@+-]*)/g;

/** Context for reading referenced files the way the read tool does. */
export interface ReferenceContext {
  cwd: string;
  agents: AgentRegistry;
  /** The context the read and list tools run with; their permission asks go through the agent's rules. */
  toolContext: ToolContext;
  /** Whether the answering agent can hand a task to the named agent (it is offered the task tool for it). */
  canDelegate: (agent: string) => boolean;
}

/**
 * Expands `@` references in a prompt's text into parts beside it:
 * - `@path/to/file`: the file's content as the read tool would return it (a synthetic text part
 *   that says so), plus a file part — images and PDFs come back as attachments the model sees;
 * - `@dir/`: a listing of the directory;
 * - `@agentname`: an agent part and a synthetic hint to delegate to it with the task tool;
 * - anything else that looks like a reference but matches nothing: a synthetic note saying so.
 */
export async function expandReferences(text: string, ctx: ReferenceContext): Promise<NewPart[]> {
  const parts: NewPart[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(REFERENCE)) {
    const raw = match[2]!.replace(/[.,;:!?)\]]+$/, "");
    if (!raw || seen.has(raw)) continue;
    seen.add(raw);
    const start = match.index! + match[1]!.length;
    parts.push(...(await expandOne(raw, start, ctx)));
  }
  return parts;
}

async function expandOne(raw: string, start: number, ctx: ReferenceContext): Promise<NewPart[]> {
  const agent = ctx.agents.has(raw) ? ctx.agents.get(raw) : undefined;
  if (agent && !agent.hidden) {
    // The hint names the task tool only when it is offered for that agent: never a tool the model lacks.
    const hint = ctx.canDelegate(agent.name)
      ? `The user asked for the ${agent.name} agent: use the task tool with subagent "${agent.name}" for this request.`
      : `The user mentioned the ${agent.name} agent, which cannot be started from here: handle the request yourself.`;
    return [
      { type: "agent", name: agent.name, source: { value: `@${raw}`, start, end: start + raw.length + 1 } },
      { type: "text", synthetic: true, text: hint },
    ];
  }
  const path = raw.startsWith("~/") ? join(process.env.HOME ?? "", raw.slice(2)) : raw;
  const absolute = isAbsolute(path) ? path : resolve(ctx.cwd, path);
  const info = await stat(absolute).catch(() => undefined);
  if (!info) return [{ type: "text", synthetic: true, text: `Note: the reference @${raw} matches no file, directory or agent.` }];
  const shown = relative(ctx.cwd, absolute) || ".";
  if (info.isDirectory()) {
    const result = await listTool.execute({ path: absolute }, ctx.toolContext).catch((error: unknown) => error as Error);
    if (result instanceof Error) return [{ type: "text", synthetic: true, text: `Note: @${raw} could not be listed: ${result.message}` }];
    return [
      { type: "text", synthetic: true, text: `Called the list tool with the following input: ${JSON.stringify({ path: shown })}` },
      { type: "text", synthetic: true, text: result.output },
      { type: "file", mime: "application/x-directory", url: pathToFileURL(absolute).href, filename: shown, source: { path: shown } },
    ];
  }
  try {
    const result = await readTool.execute({ path: absolute }, ctx.toolContext);
    const attachments = (result.attachments ?? []).map(
      (a): NewPart => ({ type: "file", mime: a.mime, url: a.url, filename: a.filename ?? shown, source: { path: shown } }),
    );
    return [
      { type: "text", synthetic: true, text: `Called the read tool with the following input: ${JSON.stringify({ path: shown })}` },
      { type: "text", synthetic: true, text: result.output },
      ...(attachments.length > 0
        ? attachments
        : [{ type: "file", mime: "text/plain", url: pathToFileURL(absolute).href, filename: shown, source: { path: shown } } as NewPart]),
    ];
  } catch (error) {
    return [{ type: "text", synthetic: true, text: `Note: @${raw} could not be read: ${error instanceof Error ? error.message : String(error)}` }];
  }
}
