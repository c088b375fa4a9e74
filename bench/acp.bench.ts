// The cost of serving a turn to an editor over ACP: a turn streaming CHARS characters one per delta,
// answered through serveAcp to the ACP SDK's own client over in-memory pipes (deltas become
// `session/update` notifications — joined while one is being written — serialised, parsed and
// validated by the client), against the same turn's events read straight from the run. Per delta, µs;
// the text the editor received must be the whole text.
import * as acp from "@agentclientprotocol/sdk";
import { serveAcp } from "@lathe/acp";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { MemoryStorage } from "@lathe/storage";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { report } from "./lib/report.ts";

const CHARS = Number(process.env.CHARS ?? 20_000);
const cwd = mkdtempSync(join(tmpdir(), "lathe-acp-bench-"));
const turn = () => ({ text: "t".repeat(CHARS) });
const model = () => mockModel(Array.from({ length: 20 }, turn), { chunkSize: 1 });

async function direct(): Promise<{ ms: number; events: number }> {
  const agent = createAgent({ model: model(), cwd, storage: new MemoryStorage(), snapshots: false, configDir: false });
  const session = await agent.sessions.create();
  const start = performance.now();
  let events = 0;
  for await (const event of agent.prompt(session.id, "go")) if (event.type === "message.part.updated" && event.delta) events++;
  const ms = performance.now() - start;
  await agent.close();
  return { ms, events };
}

async function overAcp(): Promise<{ ms: number; events: number }> {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toEditor = new TransformStream<Uint8Array, Uint8Array>();
  const served = serveAcp({
    agent: ({ cwd: folder }) => createAgent({ model: model(), cwd: folder, storage: new MemoryStorage(), snapshots: false, configDir: false }),
    input: toAgent.readable,
    output: toEditor.writable,
  });
  let events = 0;
  let chars = 0;
  const connection = acp
    .client({ name: "bench" })
    .onNotification("session/update", ({ params }) => {
      if (params.update.sessionUpdate !== "agent_message_chunk" || params.update.content.type !== "text") return;
      events++;
      chars += params.update.content.text.length;
    })
    .connect(acp.ndJsonStream(toAgent.writable, toEditor.readable));
  await connection.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await connection.agent.request("session/new", { cwd, mcpServers: [] });
  const start = performance.now();
  await connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
  const ms = performance.now() - start;
  connection.close();
  await toAgent.writable.close();
  await served;
  if (chars !== CHARS) throw new Error(`the editor received ${chars} of ${CHARS} characters`);
  return { ms, events };
}

async function median(fn: () => Promise<{ ms: number; events: number }>) {
  await fn();
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await fn());
  runs.sort((a, b) => a.ms - b.ms);
  return runs[2]!;
}

const base = await median(direct);
const served = await median(overAcp);
const perEvent = (ms: number) => (ms * 1000) / base.events;
report(import.meta.url, [
  {
    name: `a turn's text over ACP, per delta (${base.events.toLocaleString("en")} deltas in ${served.events.toLocaleString("en")} updates)`,
    value: perEvent(served.ms),
    unit: "µs",
    baseline: "the agent's own event, read from the run",
    baselineValue: perEvent(base.ms),
    note: `overhead ${(perEvent(served.ms) - perEvent(base.ms)).toFixed(1)} µs per delta; ${served.ms.toFixed(0)} ms vs ${base.ms.toFixed(0)} ms for the turn`,
  },
]);
