#!/usr/bin/env node
// A Lathe agent an editor launches over the Agent Client Protocol: it speaks newline-delimited
// JSON-RPC on stdin/stdout (so everything it logs goes to stderr).
//
//   node examples/acp/src/main.ts        (ANTHROPIC_API_KEY, OPENAI_API_KEY or LATHE_BASE_URL; LATHE_DB)
//
// Model: as the CLI example picks it from the environment, else the CLI's offline demo model.
// Sessions are kept in SQLite (LATHE_DB, default ~/.lathe/acp.db), so the editor can load them again.
// Each folder the editor opens gets its own agent, with the editor's MCP servers and files.
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { serveAcp } from "@lathe/acp";
import { createAgent } from "@lathe/core";
import { SqliteStorage } from "@lathe/storage";
import { builtinTools } from "@lathe/tools";
import { demoModel } from "../../cli/src/demo.ts";
import { modelFromEnv } from "../../cli/src/model-from-env.ts";

process.removeAllListeners("warning"); // node:sqlite's "experimental" notice would reach the editor's log

const chosen = modelFromEnv();
const dbPath = process.env.LATHE_DB ?? join(homedir(), ".lathe", "acp.db");
mkdirSync(dirname(dbPath), { recursive: true });
const storage = new SqliteStorage(dbPath);
console.error(`Lathe ACP agent — model ${chosen?.label ?? "offline demo"}, sessions in ${dbPath}`);

await serveAcp({
  agentInfo: { name: "lathe-acp-example", title: "Lathe", version: "0.0.0" },
  // No `approve`: every ask goes to the editor. Edits and commands ask, as in the other examples.
  agent: ({ cwd, tools, files }) =>
    createAgent({
      model: chosen?.model ?? demoModel({ delayMs: 10 }),
      cwd,
      storage,
      tools: [...builtinTools(), ...tools],
      ...(files ? { files } : {}),
      permission: { edit: "ask", bash: "ask" },
    }),
});
await storage.close();
