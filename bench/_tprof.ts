import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { CHUNK, longSessionScript, noopTool } from "./lib/long-session.ts";
const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("bench");
for (let i = 0; i < 8; i++) {
  const agent = createAgent({ model: mockModel(longSessionScript(), { chunkSize: CHUNK }), tools: [noopTool], instructions: "You are a test.", snapshots: false, telemetry: { tracer } });
  const s = await agent.sessions.create();
  await agent.prompt(s.id, "go");
  exporter.reset();
  await agent.close();
}
