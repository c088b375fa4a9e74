// MCP overhead: tool calls through @lathe/mcp (input validation, permission ask, result conversion,
// output truncation, timeout and reconnect handling) against the raw SDK client calling the same
// stdio server (server-everything), measured in the same run; plus connecting and listing tools.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mcpTools } from "@lathe/mcp";
import type { ToolContext } from "@lathe/tools";
import { medianMs, report } from "./lib/report.ts";

const CALLS = 300;
const require = createRequire(import.meta.url);
const manifest = require.resolve("@modelcontextprotocol/server-everything/package.json");
const bin = path.join(path.dirname(manifest), (JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> }).bin["mcp-server-everything"]!);
const server = { command: process.execPath, args: [bin, "stdio"] };

const ctx: ToolContext = {
  sessionID: "ses_bench",
  messageID: "msg_bench",
  callID: "call_bench",
  agent: "build",
  cwd: process.cwd(),
  abort: new AbortController().signal,
  ask: async () => {},
  metadata: () => {},
  emit: () => {},
  state: <T>(_key: string, init: () => T) => init(),
};

async function rawClient(): Promise<Client> {
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(new StdioClientTransport({ ...server, stderr: "ignore" }));
  await client.listTools();
  return client;
}

// Calls.
const source = mcpTools({ servers: { everything: server } });
const echo = (await source.tools()).find((t) => t.name === "everything_echo")!;
const raw = await rawClient();
const viaLathe = async () => {
  for (let i = 0; i < CALLS; i++) await echo.execute({ message: `m${i}` }, ctx);
};
const viaSdk = async () => {
  for (let i = 0; i < CALLS; i++) await raw.callTool({ name: "echo", arguments: { message: `m${i}` } });
};
// Both sides warm up (JIT, both server processes) before either is measured.
await viaSdk();
await viaLathe();
const sdk = await medianMs(viaSdk, 7, 2);
const lathe = await medianMs(viaLathe, 7, 2);
await raw.close();
const closeMs = await (async () => {
  const start = performance.now();
  await source.close();
  return performance.now() - start;
})();

// Connecting: spawn, handshake, list tools.
const connectLathe = await medianMs(async () => {
  const s = mcpTools({ servers: { everything: server } });
  await s.tools();
  void s.close();
}, 3);
const connectSdk = await medianMs(async () => {
  const client = await rawClient();
  void client.close();
}, 3);

report(import.meta.url, [
  { name: `${CALLS} echo calls over stdio`, value: lathe, baseline: "raw SDK client.callTool", baselineValue: sdk, target: "≤ 1.3×", note: `${((lathe / CALLS) * 1000).toFixed(0)} µs per call` },
  { name: "start server, handshake, list tools", value: connectLathe, baseline: "raw SDK connect + listTools", baselineValue: connectSdk, target: "≤ 1.2×" },
  { name: "close (stdin closed, server exits)", value: closeMs, target: "< 1,000 ms" },
]);
