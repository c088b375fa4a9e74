// Serves a Lathe agent over HTTP.
//
//   node examples/server/src/main.ts        (PORT, LATHE_WORKSPACE, DATABASE_URL, LATHE_DB)
//
// Storage: PostgreSQL when DATABASE_URL is set, else SQLite in LATHE_DB (default ~/.lathe/server.db).
// Model: as the CLI example picks it (ANTHROPIC_API_KEY, OPENAI_API_KEY, LATHE_BASE_URL), else the
// CLI's offline demo model in a temporary project. Approvals wait for POST /permissions/:id.
import { homedir } from "node:os";
import { join } from "node:path";
import { createAgent } from "@lathe/core";
import { createDemoWorkspace, demoModel } from "../../cli/src/demo.ts";
import { modelFromEnv } from "../../cli/src/model-from-env.ts";
import { startServer, stopOnSignals } from "./server.ts";
import { storageFromEnv } from "./storage-from-env.ts";

process.removeAllListeners("warning"); // node:sqlite's "experimental" notice, once per start

const chosen = modelFromEnv();
const cwd = process.env.LATHE_WORKSPACE ?? (chosen ? process.cwd() : createDemoWorkspace());
const { storage, kind } = storageFromEnv(process.env, { sqlitePath: process.env.LATHE_DB ?? join(homedir(), ".lathe", "server.db") });
const agent = createAgent({
  model: chosen?.model ?? demoModel({ delayMs: 10 }),
  cwd,
  storage,
  // No `approve` callback: requests wait until a client answers POST /permissions/:requestID.
  agents: { build: { permission: { edit: "ask", bash: "ask" } } },
});
const server = await startServer({ agent, port: Number(process.env.PORT ?? 8787) });
console.log(`Lathe server on ${server.url} — model ${chosen?.label ?? "offline demo"}, ${kind} storage, workspace ${cwd}`);

stopOnSignals(server, agent, storage);
