// A model that repeats a tool call id (in one step, or a later one) gets a stored part per call:
// each runs, each has its own result and its own approval — none overwrites another.
import { describe, expect, it } from "vitest";
import { createAgent, toUIMessageStream, type PermissionRequest } from "@lathe/core";
import { mockModel } from "@lathe/mock";

describe("a repeated tool call id", () => {
  it("gets a distinct part, result and approval for every call", async () => {
    const bash = (word: string) => ({ id: "dup", name: "bash", input: { command: `echo ${word}`, description: word } });
    const model = mockModel([{ toolCalls: [bash("first"), bash("second")] }, { toolCalls: [bash("third")] }, { text: "done" }]);
    const asked: PermissionRequest[] = [];
    const agent = createAgent({ model, snapshots: false, configDir: false, permission: { bash: "ask" }, approve: async (r) => (asked.push(r), "once") });
    const session = await agent.sessions.create();
    const chunks: { type: string; toolCallId?: string }[] = [];
    const run = agent.prompt(session.id, "echo three times");
    const reader = toUIMessageStream(run).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value as { type: string; toolCallId?: string });
    const { parts } = await run;
    const tools = parts.flatMap((p) => (p.type === "tool" ? [p] : []));
    expect(tools.map((p) => p.callID)).toEqual(["dup", "dup_2", "dup_3"]);
    expect(tools.map((p) => (p.state.status === "completed" ? p.state.output.trim() : p.state.status))).toEqual(["first", "second", "third"]);
    expect(asked.map((r) => r.tool?.callID)).toEqual(["dup", "dup_2", "dup_3"]);
    // The live stream carries each call under its own id.
    const outputs = chunks.filter((c) => c.type === "tool-output-available").map((c) => c.toolCallId);
    expect(outputs).toEqual(["dup", "dup_2", "dup_3"]);
    // Stored as answered: the history the next request sends pairs each call with its own result.
    const stored = (await agent.sessions.messages(session.id)).flatMap((m) => m.parts).filter((p) => p.type === "tool");
    expect(stored.map((p) => p.type === "tool" && p.callID)).toEqual(["dup", "dup_2", "dup_3"]);
    expect(JSON.stringify(model.calls[2]?.prompt)).toContain("dup_3");
    await agent.close();
  });
});
