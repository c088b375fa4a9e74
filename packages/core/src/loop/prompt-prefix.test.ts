import { experimental_streamLanguageModelCall as streamLanguageModelCall, simulateReadableStream, type LanguageModel, type ModelMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { PromptPrefix } from "./prompt-prefix.js";

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A model that answers every request at once, keeping the prompts it was sent. */
function recordingModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start" as const, warnings: [] },
          { type: "finish" as const, finishReason: { unified: "stop" as const, raw: "stop" }, usage },
        ],
      }),
    }),
  });
}

/** Sends one request (through the prefix when given) and returns the prompt the provider received. */
async function send(model: MockLanguageModelV4, messages: ModelMessage[], prefix?: PromptPrefix): Promise<LanguageModelV4Prompt> {
  const sent = prefix ? prefix.prepare(model, messages) : { model: model as LanguageModel, messages };
  const { stream } = await streamLanguageModelCall({ model: sent.model, instructions: "Be brief.", messages: sent.messages });
  for await (const part of stream) void part;
  return model.doStreamCalls.at(-1)!.prompt;
}

/** One step of a history: the model's text and tool call, then the tool's result. */
function step(n: number): ModelMessage[] {
  return [
    { role: "assistant", content: [{ type: "text", text: `step ${n}` }, { type: "tool-call", toolCallId: `c${n}`, toolName: "noop", input: { n } }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: `c${n}`, toolName: "noop", output: { type: "text", value: `ok ${n}` } }] },
  ];
}

describe("PromptPrefix", () => {
  it("sends the provider the prompt the SDK builds from the whole history, converting only the new messages", async () => {
    const withPrefix = recordingModel();
    const without = recordingModel();
    const prefix = new PromptPrefix();
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    for (let n = 0; n < 5; n++) {
      const before = history.length;
      history.push(...step(n));
      const prepared = prefix.prepare(withPrefix, history);
      // The first request converts everything; each later one only what the last one lacked.
      expect(prepared.messages).toHaveLength(n === 0 ? history.length : history.length - before);
      expect(await send(withPrefix, history, prefix)).toEqual(await send(without, history));
    }
  });

  it("converts the whole history again when a message it sent was replaced, removed or is followed by a tool message", async () => {
    const model = recordingModel();
    const prefix = new PromptPrefix();
    const history: ModelMessage[] = [{ role: "user", content: "go" }, ...step(0)];
    await send(model, history, prefix);

    // A message rewritten (a new object, as the message cache makes for a changed step).
    const rewritten: ModelMessage[] = [history[0]!, { ...history[1]! } as ModelMessage, history[2]!, ...step(1)];
    expect(prefix.prepare(model, rewritten).messages).toHaveLength(rewritten.length);
    expect(await send(model, rewritten, prefix)).toEqual(await send(recordingModel(), rewritten));

    // A tool message right after what was sent would merge with the last one: no reuse.
    const tool: ModelMessage = { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "noop", output: { type: "text", value: "again" } }] };
    expect(prefix.prepare(model, [...rewritten, tool]).messages).toHaveLength(rewritten.length + 1);

    // A shorter history (messages dropped): converted whole.
    expect(prefix.prepare(model, history.slice(0, 1)).messages).toHaveLength(1);
  });

  it("reuses nothing for another model, and leaves a model named by a string to the SDK", async () => {
    const first = recordingModel();
    const second = recordingModel();
    const prefix = new PromptPrefix();
    const history: ModelMessage[] = [{ role: "user", content: "go" }, ...step(0)];
    await send(first, history, prefix);
    const grown = [...history, ...step(1)];
    expect(prefix.prepare(second, grown).messages).toHaveLength(grown.length);
    expect(prefix.prepare("openai/gpt-5", grown)).toEqual({ model: "openai/gpt-5", messages: grown });
  });

  it("puts the remembered prompt behind the request's own instructions, which may change between steps", async () => {
    const model = recordingModel();
    const prefix = new PromptPrefix();
    const history: ModelMessage[] = [{ role: "user", content: "go" }, ...step(0)];
    await send(model, history, prefix);
    history.push(...step(1));
    const sent = prefix.prepare(model, history);
    const { stream } = await streamLanguageModelCall({ model: sent.model, instructions: "Now be verbose.", messages: sent.messages });
    for await (const part of stream) void part;
    const prompt = model.doStreamCalls.at(-1)!.prompt;
    expect(prompt[0]).toEqual({ role: "system", content: "Now be verbose." });
    expect(prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool"]);
  });
});
