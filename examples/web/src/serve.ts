// Serves examples/web: the built browser app (dist/) and examples/server's API on one port, with the
// offline demo model in a temporary project — no API key, no network. Sessions live in a temporary
// SQLite file beside it (outside the project, so they are not among the files the agent changed).
// The API needs the per-start token printed below; the page takes it from the address's fragment.
//
//   npm run web            (builds the packages and the app first; PORT, default 5178)
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAgent } from "@lathe/core";
import { SqliteStorage } from "@lathe/storage";
import { createDemoWorkspace } from "../../cli/src/demo.ts";
import { examplePermissions } from "../../shared/permission-rules.ts";
import { startServer, stopOnSignals } from "../../server/src/server.ts";
import { webDemoModel } from "./web-demo.ts";

const dist = fileURLToPath(new URL("../dist", import.meta.url));
const cwd = createDemoWorkspace();
const storage = new SqliteStorage(join(mkdtempSync(join(tmpdir(), "lathe-web-db-")), "sessions.db"));
const agent = createAgent({
  model: webDemoModel({ delayMs: Number(process.env.LATHE_DEMO_DELAY_MS ?? 20) }),
  cwd,
  storage,
  // The demo's own temporary project, made just now: nothing in it comes from anyone else.
  trust: "trusted",
  // Edits and commands wait for the browser's answer: the same rules as the CLI and server examples.
  ...examplePermissions(),
});
const server = await startServer({ agent, port: Number(process.env.PORT ?? 5178), hostname: "127.0.0.1", staticRoot: dist });
console.log(`Lathe web — offline demo model, workspace ${cwd}`);
console.log(`Open ${server.pageUrl}`);
console.log(`Try: "${"The tests of this project fail. Find the bug and fix it."}"`);

stopOnSignals(server, agent, storage);
