import { generateText, type LanguageModel } from "ai";
import { addTokens, type ModelRef } from "@lathe/message";
import type { ModelFacts } from "../context/model-facts.js";
import { costOf, tokensFromUsage } from "../context/usage.js";
import type { SessionUpdater } from "./session-updater.js";

/** The name of the hidden agent that writes titles. */
export const TITLE_AGENT = "title";

const DEFAULT_TITLE = /^New session \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const MAX_TITLE_LENGTH = 80;
const MAX_PROMPT_CHARS = 4_000;

/** The title a session gets when the host gives none; replaced after the first prompt. */
export function defaultTitle(now: number): string {
  return `New session ${new Date(now).toISOString()}`;
}

/** Whether a title is still the default one (so a generated title may replace it). */
export function isDefaultTitle(title: string): boolean {
  return DEFAULT_TITLE.test(title);
}

/** A title from a prompt's first non-empty line, cut at a word near {@link MAX_TITLE_LENGTH} characters. */
export function titleFromPrompt(text: string): string {
  const line = text.split(/\r?\n/).map((l) => l.replace(/\s+/g, " ").trim()).find((l) => l !== "") ?? "";
  return clip(line);
}

function clip(text: string): string {
  if (text.length <= MAX_TITLE_LENGTH) return text;
  const cut = text.slice(0, MAX_TITLE_LENGTH - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Cleans a model's answer into a title: its first line, without quotes, a `Title:` label or a final period. */
export function cleanTitle(answer: string): string {
  const line = answer
    .replace(/<think>[\s\S]*?<\/think>/g, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== "");
  if (!line) return "";
  const bare = line
    .replace(/^(title)\s*:\s*/i, "")
    .replace(/^[#*\s]+/, "")
    .replace(/^["'`“”‘’]+|["'`“”‘’]+$/g, "")
    .replace(/\*+$/, "")
    .replace(/\.$/, "")
    .trim();
  return clip(bare);
}

const TITLE_SYSTEM =
  "You write the title of a coding session from the user's first request: at most 8 words, in the request's language, " +
  "naming the task (files, features, errors) concretely. No quotes, no trailing period, no preamble. Answer with the title only.";

/**
 * What titling needs from the agent that owns it. The loop's `AgentRuntime` is one; it is spelt out
 * here so that session/ imports neither loop/ nor agents/ (which sit above it).
 */
export interface TitleRuntime {
  readonly options: { readonly headers?: Record<string, string> | undefined };
  readonly agents: { get(name: string): { readonly model?: LanguageModel | undefined; readonly prompt?: string | undefined } };
  modelFor(agent: string): { ref: ModelRef };
  facts(ref: ModelRef): ModelFacts;
  readonly updater: SessionUpdater;
}

/**
 * Gives sessions titles from their first prompt, in the background: at once the prompt's first line,
 * then — when the host gave the hidden `title` agent a model — the model's title. Never delays a
 * run; a title the host set meanwhile is never overwritten. `close()` aborts what is still running.
 */
export class SessionTitles {
  private readonly running = new Set<Promise<void>>();
  private readonly controller = new AbortController();

  constructor(private readonly rt: TitleRuntime) {}

  /** Starts titling a session whose title is still the default one. */
  start(sessionID: string, prompt: string): void {
    // A prompt of attachments only has nothing to title from: the default title stays.
    if (prompt.trim() === "") return;
    const fallback = titleFromPrompt(prompt);
    const job = this.run(sessionID, prompt, fallback).catch(() => {});
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
  }

  /** Waits for the titles being written (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Aborts the titles being written and waits for them. */
  async close(): Promise<void> {
    this.controller.abort("agent closed");
    await this.settled();
  }

  private async run(sessionID: string, prompt: string, fallback: string): Promise<void> {
    if (fallback) await this.setTitle(sessionID, fallback);
    const model = this.rt.agents.get(TITLE_AGENT).model;
    if (!model) return;
    const { ref } = this.rt.modelFor(TITLE_AGENT);
    const result = await generateText({
      model,
      system: this.rt.agents.get(TITLE_AGENT).prompt ?? TITLE_SYSTEM,
      prompt: prompt.slice(0, MAX_PROMPT_CHARS),
      maxRetries: 1,
      abortSignal: this.controller.signal,
      ...(this.rt.options.headers ? { headers: this.rt.options.headers } : {}),
    });
    const tokens = tokensFromUsage(result.usage);
    const cost = costOf(tokens, this.rt.facts(ref).price);
    const title = cleanTitle(result.text);
    await this.rt.updater.update(sessionID, (session) => {
      // A title costs like any request: the session's totals say so.
      session.usage = { tokens: addTokens(session.usage.tokens, tokens), cost: session.usage.cost + cost, steps: (session.usage.steps ?? 0) + 1 };
      if (title && (session.title === fallback || isDefaultTitle(session.title))) session.title = title;
    });
  }

  private async setTitle(sessionID: string, title: string): Promise<void> {
    await this.rt.updater.update(sessionID, (session) => {
      if (isDefaultTitle(session.title)) session.title = title;
    });
  }
}
