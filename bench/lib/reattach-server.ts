// The server side of bench/reattach.bench.ts, in a process of its own (as a deployed server is, so
// the client's timing is not the server's work): examples/server over an agent whose session holds
// one run of CHARS one-character deltas. Prints `{ url, token, sessionID, events }` when ready.
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { MemoryStorage } from "@lathe/storage";
import { startServer } from "../../examples/server/src/server.ts";

const chars = Number(process.env.CHARS ?? 10_000);
const agent = createAgent({ model: mockModel([{ text: "t".repeat(chars) }], { chunkSize: 1 }), storage: new MemoryStorage(), snapshots: false });
const session = await agent.sessions.create();
await agent.prompt(session.id, "go");
let events = 0;
for await (const { event } of agent.sessions.stream(session.id, { after: 0 })) {
  events++;
  if (event.type === "session.status" && event.status.type === "idle") break;
}
const server = await startServer({ agent, port: 0 });
console.log(JSON.stringify({ url: server.url, token: server.token, sessionID: session.id, events }));
process.on("SIGTERM", () => void server.close().then(() => agent.close()).then(() => process.exit(0)));
