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
