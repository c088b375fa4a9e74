import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { mockModel, type MockModel } from "@lathe/mock";
import { builtinTools, defineTool, type Tool } from "@lathe/tools";

// What the model was sent as a tool's result, by the call that follows it.
function toolOutputSent(model: MockModel, callIndex: number): string {
  const prompt = model.calls[callIndex]!.prompt;
  for (const message of [...prompt].reverse()) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output as { type: string; value: unknown };
      return typeof output.value === "string" ? output.value : JSON.stringify(output.value);
    }
  }
  throw new Error("no tool result in the prompt");
}

const NOTE = /\[output truncated/g;
const SAVED = /saved in (\S+?);/;

async function runTool(name: string, input: Record<string, unknown>, tools?: Tool[], cwd = mkdtempSync(join(tmpdir(), "lathe-trunc-"))) {
  const model = mockModel([{ toolCalls: [{ name, input }] }, { text: "done" }]);
  const agent = createAgent({ model, cwd, snapshots: false, ...(tools ? { tools } : {}) });
  const session = await agent.sessions.create();
  const { info } = await agent.prompt(session.id, "go");
  expect(info.error).toBeUndefined();
  return { sent: toolOutputSent(model, 1), cwd };
}

describe("a tool result is truncated once", () => {
  it("bash keeps the last line of a long output (the error, the summary), with one note naming one complete file", async () => {
    const command = "seq -f 'line-%g-xxxxxxxxxxxxxxxxxxxx' 1 5000; echo FINAL-SUMMARY";
    const { sent } = await runTool("bash", { command, description: "long output" });
    expect(sent.match(NOTE)?.length).toBe(1);
    expect(sent.trimEnd().endsWith("FINAL-SUMMARY") || sent.includes("FINAL-SUMMARY\n")).toBe(true);
    const saved = readFileSync(sent.match(SAVED)![1]!, "utf8");
    expect(saved).toContain("line-1-");
    expect(saved).toContain("FINAL-SUMMARY");
  });

  it("read keeps its 'continue at offset' footer and adds no second note", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "lathe-trunc-"));
    writeFileSync(join(cwd, "big.txt"), Array.from({ length: 4000 }, (_, i) => `row ${i} ${"y".repeat(40)}`).join("\n"));
    const { sent } = await runTool("read", { path: "big.txt" }, undefined, cwd);
    expect(sent).toMatch(/Use offset=\d+ to read on/);
    expect(sent.match(NOTE)).toBeNull();
  });

  it("grep with more output than the limit says so once", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "lathe-trunc-"));
    for (let f = 0; f < 30; f++) writeFileSync(join(cwd, `f${f}.txt`), Array.from({ length: 20 }, () => `needle ${"z".repeat(1900)}`).join("\n"));
    const { sent } = await runTool("grep", { pattern: "needle" }, undefined, cwd);
    expect((sent.match(NOTE) ?? []).length).toBeLessThanOrEqual(1);
  });

  it("a tool that does not bound its output is capped keeping its head and tail, with one note and the complete text saved", async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `entry ${i}`);
    const noisy = defineTool({
      name: "noisy",
      description: "Prints a lot.",
      parameters: z.object({}),
      async execute() {
        return { title: "noisy", output: `HEADER\n${lines.join("\n")}\nERROR: the last line matters` };
      },
    });
    const { sent } = await runTool("noisy", {}, [...builtinTools(), noisy]);
    expect(sent.startsWith("HEADER\nentry 0\n")).toBe(true);
    expect(sent.endsWith("ERROR: the last line matters")).toBe(true);
    expect(sent.match(NOTE)?.length).toBe(1);
    expect(sent).toContain("truncated from the middle");
    const saved = readFileSync(sent.match(SAVED)![1]!, "utf8");
    expect(saved).toBe(`HEADER\n${lines.join("\n")}\nERROR: the last line matters`);
  });

  it("an output within the limits reaches the model untouched", async () => {
    const small = defineTool({
      name: "small",
      description: "Prints a little.",
      parameters: z.object({}),
      async execute() {
        return { title: "small", output: "one\ntwo\nthree" };
      },
    });
    const { sent } = await runTool("small", {}, [small]);
    expect(sent).toBe("one\ntwo\nthree");
  });
});
