// Testing an agent and its tools with @lathe/mock: a scripted model drives the real loop, tools and
// files; the helpers say what the run did; a cassette replays a recorded conversation offline.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  cassetteFile,
  collectRun,
  filesChanged,
  finalText,
  mockModel,
  recordModel,
  replayModel,
  toolCalls,
  type NormalizeOptions,
} from "@lathe/mock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDocsAgent } from "./agent.ts";

let cwd: string;
let dataDir: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "docs-agent-"));
  dataDir = mkdtempSync(join(tmpdir(), "docs-agent-data-"));
  writeFileSync(join(cwd, "README.md"), "# Demo\n\nA tiny project.\n");
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs one prompt in a new session and collects what happened. */
async function ask(model: Parameters<typeof createDocsAgent>[0]["model"], prompt: string) {
  const agent = createDocsAgent({ model, cwd, dataDir });
  try {
    const session = await agent.sessions.create();
    return await collectRun(agent.prompt(session.id, prompt));
  } finally {
    await agent.close();
  }
}

describe("the word_count tool", () => {
  it("counts the lines and words of a file", async () => {
    const run = await ask(mockModel([{ toolCalls: [{ name: "word_count", input: { path: "README.md" } }] }, { text: "Done." }]), "count");
    const [call] = toolCalls(run);
    expect(call).toMatchObject({ tool: "word_count", status: "completed", output: "README.md: 3 lines, 5 words" });
    expect(call!.metadata).toEqual({ lines: 3, words: 5 });
  });

  it("refuses a file outside the workspace, and the model reads why", async () => {
    const model = mockModel([{ toolCalls: [{ name: "word_count", input: { path: "../../etc/passwd" } }] }, { text: "I cannot read that." }]);
    const run = await ask(model, "count the passwords");
    expect(toolCalls(run)[0]).toMatchObject({ status: "error" });
    expect(toolCalls(run)[0]!.error).toContain("outside the workspace");
    // The second request carried the error back to the model as the tool's result.
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("outside the workspace");
    expect(finalText(run)).toBe("I cannot read that.");
  });
});

describe("the docs agent", () => {
  it("writes a summary after counting, and says so", async () => {
    const run = await ask(
      mockModel([
        { toolCalls: [{ name: "word_count", input: { path: "README.md" } }] },
        { toolCalls: [{ name: "write", input: { path: "docs/SUMMARY.md", content: "README.md: 5 words\n" } }] },
        { text: "Wrote docs/SUMMARY.md." },
      ]),
      "Summarise the docs in docs/SUMMARY.md",
    );
    expect(toolCalls(run).map((c) => c.tool)).toEqual(["word_count", "write"]);
    expect(filesChanged(run, { cwd })).toEqual(["docs/SUMMARY.md"]);
    expect(finalText(run)).toBe("Wrote docs/SUMMARY.md.");
    expect(readFileSync(join(cwd, "docs", "SUMMARY.md"), "utf8")).toBe("README.md: 5 words\n");
  });
});

// A cassette records a real model once (RECORD=1 npm test, with the model below swapped for a real
// one such as anthropic("claude-sonnet-4-5")) and replays it in every run after: deterministic,
// offline, free. Lathe's system prompt, the environment note Lathe adds to a prompt (platform, date,
// listing) and the tool definitions are left out of the request's key, so upgrading Lathe or
// replaying on another machine does not invalidate the recording — only a change of the
// conversation does (the tools themselves are tested above). Drop `keyOnConversation` to key on
// everything the model saw.
const cassette = cassetteFile(fileURLToPath(new URL("../cassettes/summary.json", import.meta.url)));
type PromptMessage = { role: string; content: unknown };
const isEnvironment = (part: unknown) => typeof (part as { text?: unknown }).text === "string" && (part as { text: string }).text.startsWith("<environment>");
const keyOnConversation: NormalizeOptions = {
  normalize: (request) => ({
    ...request,
    prompt: (request.prompt as PromptMessage[])
      .filter((message) => message.role !== "system")
      .map((message) => (Array.isArray(message.content) ? { ...message, content: message.content.filter((part) => !isEnvironment(part)) } : message)),
    tools: undefined,
  }),
};
const recordedModel = () =>
  mockModel([
    { text: "Let me count.", toolCalls: [{ id: "call_1", name: "word_count", input: { path: "README.md" } }] },
    { text: "README.md has 3 lines and 5 words." },
  ]);

describe("a recorded conversation", () => {
  it("replays from its cassette", async () => {
    const model = process.env.RECORD ? recordModel(recordedModel(), cassette, keyOnConversation) : replayModel(cassette, keyOnConversation);
    const run = await ask(model, "How long is the README?");
    expect(run.result.info.error).toBeUndefined();
    expect(toolCalls(run).map((c) => c.output)).toEqual(["README.md: 3 lines, 5 words"]);
    expect(finalText(run)).toBe("README.md has 3 lines and 5 words.");
  });

  it("fails with a diff when the conversation changes", async () => {
    const run = await ask(replayModel(cassette, keyOnConversation), "How long is the LICENSE?");
    expect(run.result.info.error?.name).toBe("CassetteMismatchError");
    expect(run.result.info.error?.message).toMatch(/^-\s+"text": "How long is the README\?"$/m);
    expect(run.result.info.error?.message).toMatch(/^\+\s+"text": "How long is the LICENSE\?"$/m);
  });
});
