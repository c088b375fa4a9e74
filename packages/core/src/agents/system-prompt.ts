import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isOwnInstructionFile } from "./instruction-links.js";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { ModelRef } from "@lathe/message";

const SHARED_RULES = `- Read a file before you change it; keep changes minimal and in the style of the surrounding code.
- Prefer editing existing files to creating new ones. Never commit, push or publish unless asked.
- When a tool fails, read the error and fix the cause instead of repeating the same call.
- Tool results are for you, not the user: when you finish, tell the user briefly what you changed, what you found and what is left.`;

/** Lathe's base prompts, one per model family (each family reads instructions a little differently). */
export const BASE_PROMPTS = {
  anthropic: `You are Lathe, a coding agent working in the user's workspace through tools.
${SHARED_RULES}
- Think through multi-step work before starting; use the todo tools to track it when it has several parts.
- Be concise: short answers, no preamble, no restating the question.`,
  openai: `You are Lathe, a coding agent. You act in the user's workspace only through the tools provided.
${SHARED_RULES}
- Keep going until the request is fully done before you end your turn; do not stop to ask when you can find out with a tool.
- Answer in plain, concise prose; use code blocks only for code.`,
  google: `You are Lathe, a coding agent operating on the user's workspace with the tools provided.
${SHARED_RULES}
- Verify assumptions with read, grep and glob before acting; do not guess file contents or APIs.
- Keep your final answer short and factual.`,
  other: `You are Lathe, a coding agent working in the user's workspace through tools.
${SHARED_RULES}`,
} as const;

/** The model families Lathe has a base prompt for. */
export type ModelFamily = keyof typeof BASE_PROMPTS;

/** The base prompt family of a model, from its provider and id. */
export function modelFamily(model: ModelRef): ModelFamily {
  const id = `${model.providerID}/${model.modelID}`.toLowerCase();
  if (/anthropic|claude/.test(id)) return "anthropic";
  if (/openai|gpt|(^|\/)o\d/.test(id)) return "openai";
  if (/google|gemini|vertex/.test(id)) return "google";
  return "other";
}

/** What the model is told on the last step a step limit allows. */
export const MAX_STEPS_PROMPT = `You have reached the maximum number of steps for this task. No more tool calls will run: any you make now is refused.
Answer in text only: summarise what you did, what remains to be done, and what you recommend next.`;

/** Files whose content joins the system prompt as project instructions, looked for from the workspace up to its repository root. */
export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"] as const;

const LISTING_SKIP = new Set([".git", "node_modules", ".DS_Store", "dist", "build", "target", ".venv", "__pycache__"]);
const LISTING_LIMIT = 50;

/** Inputs of {@link buildSystemPrompt}. */
export interface SystemPromptInput {
  model: ModelRef;
  cwd: string;
  /** The agent's own instructions. */
  agentPrompt?: string | undefined;
  /** Host instructions given to the agent. */
  instructions: string[];
  /** Extra instruction files the host names (absolute, or relative to the workspace). */
  instructionFiles?: string[] | undefined;
  /** Extra instructions given with one prompt. */
  system?: string | undefined;
  /** The skill list (stable while the skills are): after the host's instructions. */
  skills?: string | undefined;
}

/** The system prompt in two parts: what stays put across a session's requests, then what may change. */
export interface SystemSections {
  /** The base prompt of the model's family, the agent's prompt, instruction files, host instructions, skills. */
  stable: string[];
  /** The prompt's own instructions. */
  volatile: string[];
}

/**
 * Builds the system prompt as sections, stable ones first so providers can cache them: the base
 * prompt of the model's family, the agent's prompt, the project's instruction files, the host's
 * instructions and the skill list (the stable part), then the prompt's own instructions (the
 * volatile part; a cache breakpoint goes between the two). The environment — date, workspace
 * listing, diagnostics — is not here: it travels in the prompt's user message, and only when it
 * changed (see {@link environmentSection}), so a new day or a new file leaves the cached prefix,
 * conversation included, as it was.
 */
export function buildSystemSections(input: SystemPromptInput): SystemSections {
  const stable: Array<string | undefined> = [BASE_PROMPTS[modelFamily(input.model)], input.agentPrompt];
  for (const file of instructionFilePaths(input.cwd, input.instructionFiles ?? [])) {
    const text = readCached(file);
    if (text !== undefined && text.trim() !== "") stable.push(`Instructions from ${file}:\n${text.trim()}`);
  }
  stable.push(...input.instructions, input.skills);
  const volatile = [input.system];
  return { stable: nonEmpty(stable), volatile: nonEmpty(volatile) };
}

/** The system prompt's sections in order (see {@link buildSystemSections}). */
export function buildSystemPrompt(input: SystemPromptInput): string[] {
  const { stable, volatile } = buildSystemSections(input);
  return [...stable, ...volatile];
}

function nonEmpty(sections: Array<string | undefined>): string[] {
  return sections.filter((s): s is string => typeof s === "string" && s.trim() !== "");
}

/** The directory holding `.git` at or above `cwd`, if any. */
export function repositoryRoot(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Instruction files that exist: from the repository root (or the workspace alone) down to the workspace, then the host's. */
export function instructionFilePaths(cwd: string, extra: string[]): string[] {
  const root = repositoryRoot(cwd);
  const dirs: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (!root || dir === root || dirname(dir) === dir) break;
  }
  const found = dirs.flatMap((dir) => INSTRUCTION_FILES.map((name) => join(dir, name)).filter((p) => isFile(p) && isOwnInstructionFile(p, root ?? cwd)));
  const hostFiles = extra.map((p) => (isAbsolute(p) ? p : join(cwd, p))).filter((p) => isFile(p) && !found.includes(p));
  return [...found, ...hostFiles];
}

/**
 * The environment a turn starts in: working directory, whether it is a git repository, platform,
 * date, what language-server diagnostics do, and the workspace's top-level listing.
 */
export function environmentSection(cwd: string, now: Date, diagnostics?: string): string {
  const listing = topLevelListing(cwd);
  return [
    "<environment>",
    `Working directory: ${cwd}`,
    `Git repository: ${repositoryRoot(cwd) ? "yes" : "no"}`,
    `Platform: ${process.platform}`,
    `Date: ${now.toDateString()}`,
    ...(diagnostics ? [`Diagnostics: ${diagnostics}`] : []),
    "</environment>",
    ...(listing ? ["<workspace>", listing, "</workspace>"] : []),
  ].join("\n");
}

function topLevelListing(cwd: string): string {
  try {
    const entries = readdirSync(cwd, { withFileTypes: true })
      .filter((e) => !LISTING_SKIP.has(e.name))
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
    const shown = entries.slice(0, LISTING_LIMIT);
    if (entries.length > shown.length) shown.push(`… and ${entries.length - shown.length} more`);
    return shown.join("\n");
  } catch {
    return "";
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

// Instruction files are read every step; keep their text while their mtime and size stay the same.
const cache = new Map<string, { key: string; text: string }>();

function readCached(path: string): string | undefined {
  try {
    const stat = statSync(path);
    const key = `${stat.mtimeMs}:${stat.size}`;
    const hit = cache.get(path);
    if (hit?.key === key) return hit.text;
    const text = readFileSync(path, "utf8");
    cache.set(path, { key, text });
    if (cache.size > 256) cache.delete(cache.keys().next().value!);
    return text;
  } catch {
    return undefined;
  }
}
