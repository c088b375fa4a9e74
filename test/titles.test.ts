import { describe, expect, it, vi } from "vitest";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";

describe("session titles", () => {
  it("titles a new session from the first line of its first prompt when no title model is named", async () => {
    const model = mockModel([{ text: "ok" }, { text: "ok again" }]);
    const agent = createAgent({ model, tools: [], snapshots: false });
    const session = await agent.sessions.create();
    expect(session.title).toMatch(/^New session /);
    await agent.prompt(session.id, "\n  Fix   the login   redirect\nIt loops forever after OAuth.");
    await vi.waitFor(async () => expect((await agent.sessions.get(session.id))?.title).toBe("Fix the login redirect"));
    // Only the main turn reached the model: titles never spend a scripted answer.
    expect(model.calls).toHaveLength(1);
    await agent.prompt(session.id, "Now something else entirely");
    await new Promise((r) => setTimeout(r, 20));
    expect((await agent.sessions.get(session.id))?.title).toBe("Fix the login redirect");
  });

  it("cuts a long first line at a word", async () => {
    const agent = createAgent({ model: mockModel([{ text: "ok" }]), tools: [], snapshots: false });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, `Refactor ${"the payment module ".repeat(10)}`);
    await vi.waitFor(async () => {
      const title = (await agent.sessions.get(session.id))!.title;
      expect(title.length).toBeLessThanOrEqual(80);
      expect(title.endsWith("…")).toBe(true);
      expect(title.startsWith("Refactor the payment module")).toBe(true);
    });
  });

  it("asks the title model in the background, never delaying the run, and counts what it cost", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const titleModel = mockModel(
      [
        async () => {
          await gate;
          return { text: 'Title: "Fix the OAuth login loop."', usage: { input: 40, output: 8 } };
        },
      ],
      { modelId: "small-model" },
    );
    const main = mockModel([{ text: "Fixed.", usage: { input: 100, output: 10 } }]);
    const agent = createAgent({
      model: main,
      tools: [],
      snapshots: false,
      agents: { title: { model: titleModel } },
      prices: { "small-model": { input: 1, output: 1 }, "mock-model": { input: 1, output: 1 } },
    });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "the login page loops after OAuth, fix it");
    // The run is done while the title model still waits: meanwhile the fallback title stands.
    expect(result.info.finish).toBe("stop");
    expect((await agent.sessions.get(session.id))?.title).toBe("the login page loops after OAuth, fix it");
    release();
    await vi.waitFor(async () => expect((await agent.sessions.get(session.id))?.title).toBe("Fix the OAuth login loop"));
    expect(titleModel.calls).toHaveLength(1);
    const stored = await agent.sessions.get(session.id);
    expect(stored?.usage.tokens.input).toBe(140);
    expect(stored?.usage.cost).toBeCloseTo(158 / 1e6, 12);
  });

  it("keeps the fallback when the title model fails, and never overwrites a title the host set", async () => {
    const failing = mockModel([{ throwOnStart: new Error("model unavailable") }]);
    const agent = createAgent({ model: mockModel([{ text: "a" }, { text: "b" }]), tools: [], snapshots: false, agents: { title: { model: failing } } });
    const untitled = await agent.sessions.create();
    await agent.prompt(untitled.id, "Add dark mode");
    await vi.waitFor(() => expect(failing.calls).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect((await agent.sessions.get(untitled.id))?.title).toBe("Add dark mode");

    const named = await agent.sessions.create({ title: "My session" });
    await agent.prompt(named.id, "Add light mode");
    await new Promise((r) => setTimeout(r, 20));
    expect((await agent.sessions.get(named.id))?.title).toBe("My session");
    expect(failing.calls).toHaveLength(1);
  });

  it("aborts a title still being written when the agent closes", async () => {
    const titleModel = mockModel([{ text: "A slow title", usage: { input: 1, output: 1 } }], { delayMs: 60_000, chunkSize: 1 });
    const agent = createAgent({ model: mockModel([{ text: "done" }]), tools: [], snapshots: false, agents: { title: { model: titleModel } } });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "Do a thing");
    const started = Date.now();
    await agent.close();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
