// Serves a Lathe agent over HTTP.
//
//   node examples/server/src/main.ts
//
// Environment: PORT (8787), HOST (127.0.0.1: this machine only), LATHE_TOKEN (default a new random
// one per start, printed once), LATHE_ALLOWED_HOSTS (host:port names besides the loopback ones, for
// a proxy in front), LATHE_WORKSPACE, DATABASE_URL, LATHE_DB, LATHE_ROLE. Read docs/deployment.md
// before listening anywhere but loopback.
//
// Storage: PostgreSQL when DATABASE_URL is set, else SQLite in LATHE_DB (default ~/.lathe/server.db).
// Model: as the CLI example picks it (ANTHROPIC_API_KEY, OPENAI_API_KEY, LATHE_BASE_URL), else the
// CLI's offline demo model in a temporary project. Approvals wait for a client's answer; a turn a
// previous process left unfinished is resumed at start, or when its waiting approval is answered.
// Workspace trust: asked once per folder when started from a terminal (remembered in
// ~/.lathe/trusted-workspaces.json, as the CLI does), LATHE_TRUST=1 to trust without asking; else —
// and always in a worker — untrusted (the library's default): nothing the repository controls runs.
// The demo's own temporary project is trusted.
//
// Worker mode (needs DATABASE_URL): LATHE_ROLE=http serves the API and enqueues prompts on a
// @lathe/queue; LATHE_ROLE=worker runs them (LATHE_CONCURRENCY turns at once, default 4). Run N of
// each over one PostgreSQL: same API, same SSE stream, any HTTP process for any session.
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createAgent, type AgentOptions } from "@lathe/core";
import { createQueue } from "@lathe/queue";
import { createDemoWorkspace, demoModel } from "../../cli/src/demo.ts";
import { modelFromEnv } from "../../cli/src/model-from-env.ts";
import { workspaceTrust } from "../../cli/src/workspace-trust.ts";
import { examplePermissions } from "../../shared/permission-rules.ts";
import { resumeInterruptedTurns } from "./resume-turns.ts";
import { startServer, stopOnSignals } from "./server.ts";
import { storageFromEnv } from "./storage-from-env.ts";

const chosen = modelFromEnv();
const cwd = process.env.LATHE_WORKSPACE ?? (chosen ? process.cwd() : createDemoWorkspace());
const role = process.env.LATHE_ROLE ?? "single";
if (role !== "single" && !process.env.DATABASE_URL) throw new Error(`LATHE_ROLE=${role} needs DATABASE_URL (PostgreSQL).`);
const queue = role === "single" ? undefined : createQueue({ connectionString: process.env.DATABASE_URL! });
const madeHere = !process.env.LATHE_WORKSPACE && !chosen;
mkdirSync(join(homedir(), ".lathe"), { recursive: true });
const trust = await workspaceTrust(cwd, {
  file: join(homedir(), ".lathe", "trusted-workspaces.json"),
  interactive: role !== "worker" && process.stdin.isTTY === true,
  ...(process.env.LATHE_TRUST === "1" || madeHere ? { given: "trusted" as const } : {}),
});
const agentOptions = {
  model: chosen?.model ?? demoModel({ delayMs: 10 }),
  cwd,
  trust,
  // No `approve` callback: requests wait until a client answers them. The same rules as the CLI and
  // web examples, for every agent (subagents included).
  ...examplePermissions(),
} satisfies Partial<AgentOptions>;

if (role === "worker") {
  // Short leases: a killed worker's sessions free soon after its heartbeat lapses.
  const worker = await queue!.work(({ storage, handOffReply }) => createAgent({ ...agentOptions, storage, handOffReply, leaseTtlMs: 5_000 }), {
    concurrency: Number(process.env.LATHE_CONCURRENCY ?? 4),
  });
  console.log(`Lathe worker ${worker.id} — model ${chosen?.label ?? "offline demo"}, workspace ${cwd}`);
  await worker.stopped; // SIGTERM: finishes or hands back its turns
  await queue!.close();
  process.exit(0);
}

const { storage, kind } = storageFromEnv(process.env, { sqlitePath: process.env.LATHE_DB ?? join(homedir(), ".lathe", "server.db") });
const agent = createAgent({ ...agentOptions, storage, ...(queue ? { handOffReply: queue.handOffReply } : {}) });
const server = await startServer({
  agent,
  port: Number(process.env.PORT ?? 8787),
  hostname: process.env.HOST ?? "127.0.0.1",
  ...(process.env.LATHE_TOKEN ? { token: process.env.LATHE_TOKEN } : {}),
  ...(process.env.LATHE_ALLOWED_HOSTS ? { allowedHosts: process.env.LATHE_ALLOWED_HOSTS.split(",").map((h) => h.trim()).filter(Boolean) } : {}),
  ...(queue ? { queue } : {}),
});
console.log(`Lathe server on ${server.url} — model ${chosen?.label ?? "offline demo"}, ${kind} storage, workspace ${cwd} (${trust})${queue ? ", prompts run by workers" : ""}`);
// The token, once (as Jupyter prints it): in the page address, and for API clients as `Authorization: Bearer <token>`.
console.log(`Open ${server.pageUrl}`);
// A turn the previous process left unfinished goes on (workers do this for theirs in worker mode).
if (!queue) {
  const resumed = await resumeInterruptedTurns(agent);
  if (resumed.length > 0) console.log(`Resumed ${resumed.length} interrupted turn${resumed.length === 1 ? "" : "s"}.`);
}

stopOnSignals(server, agent, storage, queue);
