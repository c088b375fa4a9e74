import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "@lathe/core";
import { finishChunks, startFakeOpenAI, textChunks, toolCallChunks, type FakeOpenAIServer } from "./openai-server.js";
import { echoTool } from "./helpers.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A provider that declares structured outputs: the schema goes out as `response_format: json_schema`. */
function localModel(url: string) {
  return createOpenAICompatible({ name: "local", baseURL: url, includeUsage: true, supportsStructuredOutputs: true })("local-model");
}

const Classification = z.object({ kind: z.enum(["flaky", "bug", "infra"]), reason: z.string() });

describe("structured output through @ai-sdk/openai-compatible against a local server", () => {
  it("sends the JSON schema response format with the tools, and the answer (streamed in pieces) validates", async () => {
    server = await startFakeOpenAI([
      { kind: "sse", chunks: [...toolCallChunks("call_1", "echo", { text: "log" }), ...finishChunks("tool_calls")] },
      { kind: "sse", chunks: [...textChunks(`{"kind":"flaky","reason":"timing"}`, 4), ...finishChunks("stop")] },
    ]);
    const agent = createAgent({ model: localModel(server.url), tools: [echoTool()] });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "classify this failure", { output: Classification });

    expect(result.info.error).toBeUndefined();
    expect(result.output).toEqual({ kind: "flaky", reason: "timing" });
    for (const request of server.requests) {
      expect(request.response_format).toMatchObject({
        type: "json_schema",
        json_schema: { schema: { type: "object", required: ["kind", "reason"] } },
      });
      expect((request.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toContain("echo");
    }
  });

  it("repairs an answer that does not validate, and gives up with an OutputValidationError", async () => {
    server = await startFakeOpenAI([
      { kind: "sse", chunks: [...textChunks(`{"kind":"unknown","reason":"?"}`), ...finishChunks("stop")] },
      { kind: "sse", chunks: [...textChunks(`{"kind":"bug","reason":"null deref"}`), ...finishChunks("stop")] },
      { kind: "sse", chunks: [...textChunks("I cannot say."), ...finishChunks("stop")] },
      { kind: "sse", chunks: [...textChunks("Still no idea."), ...finishChunks("stop")] },
    ]);
    const agent = createAgent({ model: localModel(server.url), tools: [] });
    const session = await agent.sessions.create();
    const repaired = await agent.prompt(session.id, "classify", { output: Classification });
    expect(repaired.output).toEqual({ kind: "bug", reason: "null deref" });
    const feedback = (server.requests[1]!.messages as Array<{ role: string; content: unknown }>).at(-1)!;
    expect(feedback.role).toBe("user");
    expect(String(feedback.content)).toContain(`{"kind":"unknown","reason":"?"}`);

    const failed = await agent.prompt(session.id, "classify again", { output: Classification, outputRepairs: 1 });
    expect(failed.output).toBeUndefined();
    expect(failed.info.error).toMatchObject({ name: "OutputValidationError", data: { text: "Still no idea.", attempts: 2 } });
    expect(server.requests).toHaveLength(4);
  });
});
