import { describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { toModelMessages } from "@lathe/message";
import { collect, echoTool } from "./helpers.js";

describe("the loop with @lathe/mock", () => {
  it("calls a tool twice, gets results, answers", async () => {
    const log: string[] = [];
    const model = mockModel([
      { text: "Let me echo.", toolCalls: [{ name: "echo", input: { text: "one" } }] },
      { toolCalls: [{ name: "echo", input: { text: "two" } }] },
      { text: "Done: one, two." },
    ]);
    const agent = createAgent({ model, tools: [echoTool(log)] });
    const session = await agent.sessions.create({ title: "t" });
    const { events, result } = await collect(agent.prompt(session.id, "echo twice"));
    expect(log).toEqual(["one", "two"]);
    expect(result.info.finish).toBe("stop");
    expect(result.info.error).toBeUndefined();
    const tools = result.parts.filter((p) => p.type === "tool");
    expect(tools.map((p) => p.type === "tool" && p.state.status)).toEqual(["completed", "completed"]);
    const text = result.parts.filter((p) => p.type === "text").map((p) => (p.type === "text" ? p.text : "")).join("|");
    expect(text).toBe("Let me echo.|Done: one, two.");
    expect(events[0]).toMatchObject({ type: "session.status", status: { type: "busy" } });
    expect(events.at(-1)).toMatchObject({ type: "session.status", status: { type: "idle" } });
    expect(events.filter((e) => e.type === "message.part.updated" && e.delta).length).toBeGreaterThan(3);
    // The third request saw both tool results.
    const third = model.calls[2]!.prompt;
    expect(JSON.stringify(third)).toContain("echo: two");
    const stored = await agent.sessions.messages(session.id);
    expect(stored).toHaveLength(2);
    expect(toModelMessages(stored, { model: { providerID: "mock", modelID: "mock-model" } })).toEqual(
      toModelMessages([stored[0]!, { info: result.info, parts: result.parts }], { model: { providerID: "mock", modelID: "mock-model" } }),
    );
  });
});
