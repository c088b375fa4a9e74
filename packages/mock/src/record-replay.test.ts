import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cassetteFile, InvalidCassetteError, memoryCassette } from "./cassette.js";
import { CassetteMismatchError, CassetteNotFoundError } from "./errors.js";
import { mockModel } from "./mock-model.js";
import { normalizeRequest, requestKey } from "./normalize-request.js";
import { recordModel } from "./record-model.js";
import { replayModel } from "./replay-model.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lathe-cassette-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const readTool = { read: tool({ description: "Reads a file.", inputSchema: jsonSchema<{ path: string }>({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }) }) };
const system = (date: string) => `You are a coding agent.\n<environment>\nDate: ${date}\n</environment>`;

async function run(model: Parameters<typeof streamText>[0]["model"], prompt: string, date = "Mon Jan 01 2024") {
  const errors: unknown[] = [];
  const result = streamText({ model, system: system(date), prompt, tools: readTool, temperature: 0, onError: ({ error }) => void errors.push(error) });
  const deltas: string[] = [];
  try {
    for await (const part of result.fullStream) if (part.type === "text-delta") deltas.push(part.text);
  } catch (error) {
    if (!errors.includes(error)) errors.push(error);
  }
  return { deltas, text: deltas.join(""), toolCalls: errors.length ? [] : await result.toolCalls, errors };
}

describe("recordModel / replayModel", () => {
  it("records each streamed response to a reviewable JSON file and replays it offline", async () => {
    const path = join(dir, "cassettes", "basic.json");
    const source = mockModel([
      { text: "Let me read it.", toolCalls: [{ id: "c1", name: "read", input: { path: "a.ts" } }] },
      { text: "It exports one function." },
    ]);
    const recorder = recordModel(source, cassetteFile(path));
    const first = await run(recorder, "What is in a.ts?");
    const second = await run(recorder, "And then?");
    expect(first.text).toBe("Let me read it.");
    expect(second.text).toBe("It exports one function.");

    const text = readFileSync(path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(text).toContain('\n  "interactions": [\n'); // pretty-printed, one field a line
    const saved = JSON.parse(text);
    expect(saved.version).toBe(1);
    expect(saved.interactions).toHaveLength(2);
    expect(saved.interactions[0].key).toMatch(/^[0-9a-f]{16}$/);
    expect(saved.interactions[0].model).toEqual({ provider: "mock", modelId: "mock-model" });
    expect(saved.interactions[0].specificationVersion).toBe("v4");
    expect(saved.interactions[0].request.temperature).toBe(0);
    expect(JSON.stringify(saved.interactions[0].request.prompt)).toContain("Date: <date>");
    expect(saved.interactions[0].request.tools[0].name).toBe("read");
    expect(saved.interactions[0].response.type).toBe("stream");
    expect(saved.interactions[0].response.parts.some((p: { type: string }) => p.type === "tool-call")).toBe(true);

    // Replay: another day, no source model; the same chunks come back in the same order.
    const replay = replayModel(cassetteFile(path));
    const again = await run(replay, "What is in a.ts?", "Tue Feb 02 2027");
    expect(again.deltas).toEqual(first.deltas);
    expect(again.toolCalls).toMatchObject([{ toolCallId: "c1", toolName: "read", input: { path: "a.ts" } }]);
    expect((await run(replay, "And then?", "Wed Mar 03 2027")).text).toBe("It exports one function.");
    expect(replay.replayed).toEqual([saved.interactions[0].key, saved.interactions[1].key]);
    expect(replay.provider).toBe("mock");
    expect(replay.modelId).toBe("mock-model");
  });

  it("answers a request made again with its next recording, then the last one", async () => {
    const cassette = memoryCassette();
    const recorder = recordModel(mockModel([{ text: "one" }, { text: "two" }]), cassette);
    await run(recorder, "same");
    await run(recorder, "same");
    const keys = cassette.data!.interactions.map((i) => i.key);
    expect(keys[0]).toBe(keys[1]);
    const replay = replayModel(cassette);
    expect((await run(replay, "same")).text).toBe("one");
    expect((await run(replay, "same")).text).toBe("two");
    expect((await run(replay, "same")).text).toBe("two");
  });

  it("fails an unseen request with a readable diff against the closest recording", async () => {
    const cassette = memoryCassette(undefined, "fixtures/login.json");
    const recorder = recordModel(mockModel([{ text: "a" }, { text: "b" }]), cassette);
    await run(recorder, "Fix the failing test in src/auth.ts");
    await run(recorder, "Write a haiku about the sea, please, in three lines");
    const replay = replayModel(cassette);
    const { errors } = await run(replay, "Fix the failing test in src/login.ts");
    expect(errors).toHaveLength(1);
    const error = errors[0] as CassetteMismatchError;
    expect(error).toBeInstanceOf(CassetteMismatchError);
    expect(error.name).toBe("CassetteMismatchError");
    expect(error.cassette).toBe("fixtures/login.json");
    expect(error.closest?.index).toBe(0);
    expect(error.message).toContain("fixtures/login.json");
    expect(error.message).toContain("Nearest recording: #1");
    expect(error.message).toMatch(/^- +"text": "Fix the failing test in src\/auth.ts"$/m);
    expect(error.message).toMatch(/^\+ +"text": "Fix the failing test in src\/login.ts"$/m);
    expect(error.closest?.changedLines).toBe(2);
    expect(error.message).toContain("--- recorded request #1\n+++ this request\n@@");
    expect(replay.misses).toEqual([error]);
  });

  it("shows a changed line of a multi-line system prompt as one line of the diff", async () => {
    const cassette = memoryCassette();
    await run(recordModel(mockModel([{ text: "a" }]), cassette), "hi");
    const replay = replayModel(cassette);
    const errors: unknown[] = [];
    const result = streamText({ model: replay, system: "You are a coding agent.\n<environment>\nPlatform: win32\n</environment>", prompt: "hi", tools: readTool, temperature: 0, onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    const message = (errors[0] as Error).message;
    expect(message).toMatch(/^-\s+"Date: <date>",?$/m);
    expect(message).toMatch(/^\+\s+"Platform: win32",?$/m);
  });

  it("says so when a cassette is empty, missing or not a cassette", async () => {
    expect(() => replayModel(join(dir, "none.json"))).toThrow(CassetteNotFoundError);
    const empty = replayModel(memoryCassette({ version: 1, interactions: [] }));
    const { errors } = await run(empty, "hi");
    expect((errors[0] as Error).message).toMatch(/the cassette is empty/);
    writeFileSync(join(dir, "bad.json"), "{ not json");
    expect(() => replayModel(join(dir, "bad.json"))).toThrow(InvalidCassetteError);
    writeFileSync(join(dir, "wrong.json"), JSON.stringify({ version: 7, interactions: [] }));
    expect(() => replayModel(cassetteFile(join(dir, "wrong.json")))).toThrow(/wrong\.json cannot be read/);
  });

  it("records a stream that fails and replays the failure after the same parts", async () => {
    const cassette = memoryCassette();
    const failing = mockModel([{ text: "partial", error: Object.assign(new Error("connection reset"), { statusCode: 503 }) }]);
    const first = await run(recordModel(failing, cassette), "go");
    expect(first.text).toBe("partial");
    expect(cassette.data!.interactions[0]!.response).toMatchObject({ type: "stream", error: { name: "Error", message: "connection reset", data: { statusCode: 503 } } });
    const replayed = await run(replayModel(cassette), "go");
    expect(replayed.text).toBe("partial");
    expect((replayed.errors[0] as Error).message).toBe("connection reset");
    expect((replayed.errors[0] as Error & { statusCode: number }).statusCode).toBe(503);
  });

  it("does not record a stream the caller cancelled", async () => {
    const cassette = memoryCassette();
    const recorder = recordModel(mockModel([{ text: "a long answer that is cut off" }], { chunkSize: 2 }), cassette);
    const controller = new AbortController();
    const result = streamText({ model: recorder, prompt: "go", abortSignal: controller.signal, onError: () => {} });
    for await (const part of result.fullStream) if (part.type === "text-delta") controller.abort();
    expect(cassette.data).toBeUndefined();
  });

  it("records and replays generate calls, and serves either kind of call from either recording", async () => {
    const cassette = memoryCassette();
    const recorder = recordModel(mockModel([{ text: "generated" }, { text: "streamed" }]), cassette);
    expect((await generateText({ model: recorder, prompt: "g" })).text).toBe("generated");
    await streamText({ model: recorder, prompt: "s" }).consumeStream();
    expect(cassette.data!.interactions.map((i) => i.response.type)).toEqual(["generate", "stream"]);
    const replay = replayModel(cassette);
    expect((await generateText({ model: replay, prompt: "g" })).text).toBe("generated");
    expect(await streamText({ model: replay, prompt: "g" }).text).toBe("generated");
    expect((await generateText({ model: replay, prompt: "s" })).text).toBe("streamed");
  });

  it("starts a new recording each time unless asked to append", async () => {
    const cassette = memoryCassette();
    await run(recordModel(mockModel([{ text: "1" }]), cassette), "first");
    await run(recordModel(mockModel([{ text: "2" }]), cassette), "second");
    expect(cassette.data!.interactions).toHaveLength(1);
    await run(recordModel(mockModel([{ text: "3" }]), cassette, { append: true }), "third");
    expect(cassette.data!.interactions).toHaveLength(2);
  });

  it("keeps the specification of the model it wraps (v3 here) and replays with it", async () => {
    const v4 = mockModel([{ text: "from a v3 model" }]);
    const v3 = { ...v4, specificationVersion: "v3" as const, doStream: v4.doStream, doGenerate: v4.doGenerate };
    const cassette = memoryCassette();
    const recorder = recordModel(v3 as never, cassette) as { specificationVersion: string };
    expect(recorder.specificationVersion).toBe("v3");
    expect(await streamText({ model: recorder as never, prompt: "x" }).text).toBe("from a v3 model");
    expect(cassette.data!.interactions[0]!.specificationVersion).toBe("v3");
    const replay = replayModel(cassette);
    expect(replay.specificationVersion).toBe("v3");
    expect(await streamText({ model: replay, prompt: "x" }).text).toBe("from a v3 model");
  });
});

describe("request normalisation", () => {
  const call = (text: string) => ({ prompt: [{ role: "user", content: [{ type: "text", text }] }], abortSignal: new AbortController().signal, headers: { authorization: "Bearer secret" } });

  it("hashes prompt, tools and settings, not the signal or headers", () => {
    const request = normalizeRequest({ ...call("hi"), temperature: 0.2, tools: [{ type: "function", name: "t" }] });
    expect(Object.keys(request).sort()).toEqual(["prompt", "temperature", "tools"]);
    expect(requestKey(request)).toBe(requestKey(normalizeRequest({ tools: [{ name: "t", type: "function" }], temperature: 0.2, prompt: call("hi").prompt })));
    expect(requestKey(request)).not.toBe(requestKey(normalizeRequest({ ...call("hi"), temperature: 0.3, tools: [{ type: "function", name: "t" }] })));
  });

  it("replaces dates, timestamps, Lathe ids and temporary paths by default", () => {
    const text = [
      "Date: Mon Jan 01 2024",
      "at 2024-05-06T07:08:09.123Z",
      "session ses_018f2a3b4c5d0007aZ9bY8cX7dW6e",
      `file ${join(tmpdir(), "lathe-ws-abc123")}/src/a.ts`,
    ].join("\n");
    const [message] = normalizeRequest(call(text)).prompt as Array<{ content: Array<{ text: string }> }>;
    expect(message!.content[0]!.text).toBe(["Date: <date>", "at <timestamp>", "session <ses_id>", "file <tmp>/src/a.ts"].join("\n"));
  });

  it("applies the caller's replacements and can leave out the defaults", () => {
    const custom = normalizeRequest(call("in /home/me/repo\nDate: today"), { replace: [{ pattern: "/home/me/repo", replacement: "<repo>" }] });
    expect(JSON.stringify(custom)).toContain("in <repo>\\nDate: <date>");
    const raw = normalizeRequest(call("Date: today"), { defaults: false });
    expect(JSON.stringify(raw)).toContain("Date: today");
    const dropped = normalizeRequest(call("x"), { normalize: (request) => ({ ...request, prompt: "gone" }) });
    expect(dropped.prompt).toBe("gone");
  });

  it("keeps bytes in a request as base64, so a file prompt hashes by its content", () => {
    const file = (bytes: number[]) => ({ prompt: [{ role: "user", content: [{ type: "file", data: new Uint8Array(bytes), mediaType: "image/png" }] }] });
    expect(JSON.stringify(normalizeRequest(file([1, 2, 3])))).toContain('{"$bytes":"AQID"}');
    expect(requestKey(normalizeRequest(file([1, 2, 3])))).not.toBe(requestKey(normalizeRequest(file([1, 2, 4]))));
  });
});

describe("recording a real provider", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("records an OpenAI-compatible model against a local server and replays it with the server gone", async () => {
    let requests = 0;
    server = createServer((req, res) => {
      requests++;
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const base = { id: "chatcmpl-42", object: "chat.completion.chunk", created: 1_700_000_000, model: "local-model" };
        for (const content of ["Hello", " from", " the server."]) {
          res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`);
        }
        res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 9, completion_tokens: 4 } })}\n\n`);
        res.end("data: [DONE]\n\n");
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const provider = createOpenAICompatible({ name: "local", baseURL: `http://127.0.0.1:${port}/v1`, includeUsage: true });
    const path = join(dir, "openai.json");

    const recorded = streamText({ model: recordModel(provider("local-model"), path), prompt: "Say hello" });
    expect(await recorded.text).toBe("Hello from the server.");
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;

    const saved = JSON.parse(readFileSync(path, "utf8"));
    expect(saved.interactions[0].model).toEqual({ provider: "local.chat", modelId: "local-model" });
    const metadata = saved.interactions[0].response.parts.find((p: { type: string }) => p.type === "response-metadata");
    expect(metadata.timestamp).toEqual({ $date: new Date(1_700_000_000_000).toISOString() });

    const replayed = streamText({ model: replayModel(path), prompt: "Say hello" });
    expect(await replayed.text).toBe("Hello from the server.");
    expect((await replayed.response).timestamp).toEqual(new Date(1_700_000_000_000));
    expect((await replayed.usage).outputTokens).toBe(4);
    expect(requests).toBe(1);
  });
});
