import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { APICallError } from "ai";
import { z } from "zod";
import { defineTool, type Tool } from "@lathe/tools";
import type { AgentEvent, Run } from "@lathe/core";

/** A read-only test tool that echoes its input and counts its calls. */
export function echoTool(log: string[] = []): Tool {
  return defineTool({
    name: "echo",
    description: "Echoes the text back.",
    parameters: z.object({ text: z.string() }),
    readOnly: true,
    async execute({ text }) {
      log.push(text);
      return { title: `echo ${text}`, output: `echo: ${text}`, metadata: { length: text.length } };
    },
  });
}

/** Collects a run's events while awaiting it. */
export async function collect(run: Run): Promise<{ events: AgentEvent[]; result: Awaited<Run> }> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return { events, result: await run };
}

/** Writes a file, making its folders. */
export function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A tool that always throws "disk on fire". */
export function brokenTool(): Tool {
  return defineTool({
    name: "broken",
    description: "Always fails.",
    parameters: z.object({}),
    async execute() {
      throw new Error("disk on fire");
    },
  });
}

/** The error an OpenAI-style provider gives for a prompt over the model's context window. */
export function contextOverflowError(url = "https://api.openai.com/v1/chat/completions"): APICallError {
  return new APICallError({
    message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
    url,
    requestBodyValues: {},
    statusCode: 400,
    responseBody: '{"error":{"code":"context_length_exceeded"}}',
    isRetryable: false,
  });
}

/** A read-only tool returning a big chunk of text (about 1,000 tokens); `fetched` records the chunks asked for. */
export function chunkTool(fetched: number[]): Tool {
  return defineTool({
    name: "fetch_chunk",
    description: "Fetches a chunk of the data set.",
    parameters: z.object({ n: z.number() }),
    readOnly: true,
    async execute({ n }) {
      fetched.push(n);
      return { title: `chunk ${n}`, output: `chunk ${n}: ${"lorem ipsum dolor ".repeat(220)}`, metadata: {} };
    },
  });
}

/** Polls `check` until it holds; throws (naming `what`) when it has not after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 20_000, what = "the condition", everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
