import { PassThrough } from "node:stream";
import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, type Run } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { defineTool } from "@lathe/tools";
import { TurnView } from "../examples/cli/src/turn-view.ts";

// examples/cli's turn view, fed a real agent's events: what the terminal would show.
function terminal() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return { out: stream as unknown as NodeJS.WriteStream, text: () => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "") };
}

async function show(run: Run, view: TurnView) {
  for await (const event of run) view.show(event);
  view.finish();
  return run;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("examples/cli turn view", () => {
  it("names the cause of a retry on its line", { timeout: 20_000 }, async () => {
    // What the AI SDK throws when the provider's host cannot be reached (a typo in a base URL).
    const lost = new APICallError({
      message: "Cannot connect to API: getaddrinfo ENOTFOUND api.example.com\n(more detail)",
      url: "https://api.example.com/v1/messages",
      requestBodyValues: {},
      isRetryable: true,
      cause: Object.assign(new Error("getaddrinfo ENOTFOUND api.example.com"), { code: "ENOTFOUND" }),
    });
    const agent = createAgent({ model: mockModel([{ throwOnStart: lost }, { text: "Back." }]), snapshots: false });
    const session = await agent.sessions.create();
    const screen = terminal();
    const { info } = await show(agent.prompt(session.id, "hi"), new TurnView(screen.out));
    expect(info.error).toBeUndefined();
    expect(screen.text()).toMatch(/Provider error: Cannot connect to API: getaddrinfo ENOTFOUND api\.example\.com: retrying in \d+ s \(attempt 1\)\n/);
    await agent.close();
  });

  it("times a tool call without the wait for its approval", { timeout: 20_000 }, async () => {
    const slow = defineTool({
      name: "slow",
      description: "Asks, then works for 200 ms.",
      parameters: z.object({}),
      async execute(_args, ctx) {
        await ctx.ask({ permission: "slow", patterns: ["*"] });
        await sleep(200);
        return { title: "slow", output: "done" };
      },
    });
    const model = mockModel([{ toolCalls: [{ name: "slow", input: {} }] }, { text: "Finished." }]);
    const agent = createAgent({
      model,
      tools: [slow],
      snapshots: false,
      permission: { slow: "ask" },
      approve: async () => {
        await sleep(1_500); // the person reads the prompt
        return "once";
      },
    });
    const session = await agent.sessions.create();
    const screen = terminal();
    await show(agent.prompt(session.id, "go"), new TurnView(screen.out));
    const line = /✔ slow .*?(\d+\.\d)s\n/.exec(screen.text());
    expect(line, screen.text()).not.toBeNull();
    const seconds = Number(line![1]);
    expect(seconds).toBeGreaterThanOrEqual(0.2);
    expect(seconds).toBeLessThan(1.0);
    await agent.close();
  });
});

describe("examples/cli word wrap", () => {
  it("breaks lines only at spaces (or inside a word longer than a line), whatever pieces the text streams in", async () => {
    const { WordWrap } = await import("../examples/cli/src/word-wrap.ts");
    const fc = await import("fast-check");
    const word = fc.stringMatching(/^[a-zA-Zé—`.,:()]{1,14}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 60 }), fc.integer({ min: 8, max: 40 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1 }), (words, width, cuts) => {
        const text = words.join(" ");
        const wrap = new WordWrap(() => width);
        let out = "";
        // Stream the text in pieces of the generated sizes, as deltas arrive.
        for (let at = 0, i = 0; at < text.length; i++) {
          const size = cuts[i % cuts.length]!;
          out += wrap.push(text.slice(at, at + size));
          at += size;
        }
        out += wrap.flush();
        const lines = out.split("\n");
        for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
        // Every word longer than a line is cut; every other word stays whole on one line.
        for (const w of words.filter((w) => [...w].length <= width)) expect(lines.some((line) => line.split(" ").includes(w))).toBe(true);
        // Nothing is lost or added but the breaks (a line may end in the space before its break).
        if (words.every((w) => [...w].length <= width)) expect(out.replace(/ ?\n/g, " ")).toBe(text);
        else expect(out.replace(/[\n ]/g, "")).toBe(text.replace(/ /g, ""));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the stream's own line breaks and does not wrap without a width", async () => {
    const { WordWrap } = await import("../examples/cli/src/word-wrap.ts");
    const wrap = new WordWrap(() => 10);
    expect(wrap.push("one two\nthree four five") + wrap.flush()).toBe("one two\nthree four\nfive");
    const none = new WordWrap(() => undefined);
    expect(none.push("a".repeat(300) + " b") + none.flush()).toBe(`${"a".repeat(300)} b`);
  });
});
