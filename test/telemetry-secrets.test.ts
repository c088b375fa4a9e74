// Telemetry with contents off records no contents: secrets in a `.env` file, in a URL's credentials,
// in the lines an edit's near-miss quotes, in a structured answer that failed validation and in a
// provider's error body never reach an exported span — Lathe's own or the AI SDK's (`@ai-sdk/otel`).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { APICallError } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";

const ENV_SECRET = "ENV-SECRET-d41d8cd9";
const URL_SECRET = "URL-TOKEN-8f00b204";
const NEAR_SECRET = "NEAR-MISS-SECRET-e980";
const ANSWER_SECRET = "ANSWER-SECRET-0998ecf8";
const BODY_SECRET = "PROVIDER-BODY-SECRET-427e";
const ALL = [ENV_SECRET, URL_SECRET, NEAR_SECRET, ANSWER_SECRET, BODY_SECRET];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lathe-telemetry-secrets-"));
  writeFileSync(join(dir, ".env"), `API_KEY=${ENV_SECRET}\n`);
  writeFileSync(join(dir, "config.ts"), `export const token = "${NEAR_SECRET}";\nexport const port = 8080;\n`);
});
afterEach(() => {
  trace.disable();
  rmSync(dir, { recursive: true, force: true });
});

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer("lathe-test") };
}

/** Everything an exporter would send of a span. */
const exported = (spans: ReadableSpan[]) => JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links })));

describe("spans without contents", () => {
  it("carry error names, codes and counts — no secret from files, URLs, near-misses, answers or provider bodies", async () => {
    const { exporter, tracer } = tracing();
    const model = mockModel([
      {
        toolCalls: [
          { name: "read", input: { path: ".env" } },
          { name: "edit", input: { path: ".env", oldString: `API_KEY=${ENV_SECRET}X`, newString: "API_KEY=x" } },
          { name: "webfetch", input: { url: `http://admin:${URL_SECRET}@127.0.0.1:9/private?token=${URL_SECRET}` } },
        ],
      },
      { toolCalls: [{ name: "read", input: { path: "config.ts" } }] },
      { toolCalls: [{ name: "edit", input: { path: "config.ts", oldString: `export const token = "${NEAR_SECRET}X";`, newString: "x" } }] },
      { text: `{"answer": "${ANSWER_SECRET}"` },
    ]);
    const agent = createAgent({ model, cwd: dir, snapshots: false, configDir: false, dataDir: join(dir, ".data"), approve: async () => "once", telemetry: { tracer } });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "go", { output: z.object({ answer: z.number() }), outputRepairs: 0 });
    // The failures happened, with the secrets in their messages (stored, for the host): only the spans stay clean.
    expect(result.info.error?.name).toBe("OutputValidationError");
    const stored = JSON.stringify(result.parts);
    for (const secret of [URL_SECRET, NEAR_SECRET]) expect(stored).toContain(secret);
    expect(JSON.stringify(result.info.error)).toContain(ANSWER_SECRET);

    const spans = exporter.getFinishedSpans();
    const text = exported(spans);
    for (const secret of ALL) expect(text).not.toContain(secret);
    const failedTools = spans.filter((s) => s.name === "lathe.tool" && s.status.code === 2);
    expect(failedTools.length).toBeGreaterThanOrEqual(3);
    expect(failedTools.every((s) => s.attributes["error.type"] === "ToolError")).toBe(true);
    const turn = spans.find((s) => s.name === "lathe.turn")!;
    expect(turn.attributes["error.type"]).toBe("OutputValidationError");
    await agent.close();
  });

  it("a provider's failure reaches the AI SDK's spans as its name and status code, without its message or body", async () => {
    const { exporter, tracer } = tracing();
    const failure = new APICallError({
      message: `Unauthorized: key ${BODY_SECRET} is revoked`,
      url: `https://api.example.com/v1?key=${URL_SECRET}`,
      requestBodyValues: { prompt: ENV_SECRET },
      statusCode: 401,
      responseBody: `{"error":"${BODY_SECRET}"}`,
      isRetryable: false,
    });
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw failure;
      },
    });
    const agent = createAgent({ model, cwd: dir, snapshots: false, configDir: false, dataDir: join(dir, ".data"), retry: { maxRetries: 0 }, telemetry: { tracer } });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "hello");
    expect(result.info.error).toBeDefined();
    const spans = exporter.getFinishedSpans();
    const text = exported(spans);
    for (const secret of ALL) expect(text).not.toContain(secret);
    // The SDK's spans (not lathe.*) recorded the failure: its kind and status code.
    const sdk = spans.filter((s) => !s.name.startsWith("lathe.") && s.status.code === 2);
    expect(sdk.length).toBeGreaterThan(0);
    expect(sdk.some((s) => s.attributes["http.response.status_code"] === 401)).toBe(true);
    expect(spans.find((s) => s.name === "lathe.step")?.attributes["lathe.error.code"]).toBe(401);
    await agent.close();
  });

  it("with contents on, the host gets the messages (the opt-in still works)", async () => {
    const { exporter, tracer } = tracing();
    const model = mockModel([{ toolCalls: [{ name: "webfetch", input: { url: `http://admin:${URL_SECRET}@127.0.0.1:9/` } }] }, { text: "done" }]);
    const agent = createAgent({ model, cwd: dir, snapshots: false, configDir: false, dataDir: join(dir, ".data"), approve: async () => "once", telemetry: { tracer, recordContent: true } });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "fetch");
    expect(exported(exporter.getFinishedSpans())).toContain(URL_SECRET);
    await agent.close();
  });
});
