// lathe-cli: a small terminal coding agent built on Lathe. Started by main.ts.
//
//   node examples/cli/src/main.ts [--demo] [--resume <session>] [--agent plan] [--db <file>] [--cwd <dir>] [--yes] [-p <prompt>]
//
// The model comes from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, or LATHE_BASE_URL for an
// OpenAI-compatible server); with none set — or with --demo — a scripted demo model fixes a bug in a
// temporary project, offline. Sessions are kept in SQLite (~/.lathe/cli.db, or --db).
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import input from "@inquirer/input";
import { createAgent, type Agent, type AgentOptions, type PermissionReply } from "@lathe/core";
import { SqliteStorage } from "@lathe/storage";
import pc from "picocolors";
import { ApprovalPrompt, isPromptClosed, PromptInterruptedError } from "./approval-prompt.ts";
import { createDemoWorkspace, DEMO_PROMPT, demoModel } from "./demo.ts";
import { Interrupts } from "./interrupts.ts";
import { modelFromEnv } from "./model-from-env.ts";
import { TurnView } from "./turn-view.ts";
import { examplePermissions } from "../../shared/permission-rules.ts";

const USAGE = `Usage: lathe-cli [options]

  --demo              use the offline demo model in a temporary project (default when no API key is set)
  --resume <session>  continue a stored session
  --agent <name>      the agent that answers: build (default), plan (read-only), explore
  --db <file>         the SQLite database of sessions (default ~/.lathe/cli.db)
  --cwd <dir>         the workspace (default: the current directory)
  -p, --prompt <text> answer one prompt and exit
  --yes               approve every request without asking
  --sessions          list stored sessions and exit
  -h, --help          show this help

Model: LATHE_BASE_URL (+ LATHE_MODEL, LATHE_API_KEY) for an OpenAI-compatible server,
ANTHROPIC_API_KEY or OPENAI_API_KEY (+ LATHE_MODEL).`;

const { values: args } = parseArgs({
  options: {
    demo: { type: "boolean", default: false },
    resume: { type: "string" },
    agent: { type: "string", default: "build" },
    db: { type: "string" },
    cwd: { type: "string" },
    prompt: { type: "string", short: "p" },
    yes: { type: "boolean", default: false },
    sessions: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

const out = process.stdout;
const dbPath = args.db ?? join(homedir(), ".lathe", "cli.db");
mkdirSync(dirname(dbPath), { recursive: true });
const storage = new SqliteStorage(dbPath);

if (args.sessions) {
  const { sessions } = await storage.listSessions({ limit: 50 });
  for (const s of sessions) console.log(`${s.id}  ${new Date(s.time.updated).toLocaleString()}  ${s.title}  ${pc.dim(s.directory)}`);
  await storage.close();
  process.exit(0);
}

// Resuming works in the session's own workspace, so the paths in its history still mean the same files.
const resumed = args.resume ? await storage.getSession(args.resume) : undefined;
if (args.resume && !resumed) {
  console.error(pc.red(`No session ${args.resume} in ${dbPath}. List them with --sessions.`));
  await storage.close();
  process.exit(1);
}

const fromEnv = args.demo ? undefined : modelFromEnv();
const demo = fromEnv === undefined;
let cwd = args.cwd ?? resumed?.directory ?? process.cwd();
if (demo && !args.cwd && (!resumed || !existsSync(resumed.directory))) cwd = createDemoWorkspace();
if (demo) {
  // The demo's commands call `node`: make it this Node, whatever the PATH had.
  process.env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ""}`;
}
const model: AgentOptions["model"] = fromEnv?.model ?? demoModel({ delayMs: Number(process.env.LATHE_DEMO_DELAY_MS ?? 25) });

let agent: Agent | undefined;
let exiting = false;
const view = new TurnView(out);
const exit = async (code = 0) => {
  if (exiting) return;
  exiting = true;
  view.finish();
  interrupts.dispose();
  await agent?.close();
  await storage.close();
  out.write(pc.dim(`\nSession kept in ${dbPath}. Resume it with --resume ${session.id}\n`));
  process.exit(code);
};
const interrupts = new Interrupts({ onExit: () => void exit(130), onNotice: (text) => view.note(pc.yellow(text)) });
const approvals = new ApprovalPrompt(out);

const approve = async (request: Parameters<ApprovalPrompt["ask"]>[0], { signal }: { signal: AbortSignal }): Promise<PermissionReply> => {
  view.suspend();
  if (typeof request.metadata.diff === "string" && request.tool) view.diffSeen(request.tool.callID);
  try {
    return await approvals.ask(request, signal);
  } catch (error) {
    if (!(error instanceof PromptInterruptedError)) throw error;
    interrupts.press();
    return "reject";
  } finally {
    view.resume();
  }
};

agent = createAgent({
  model,
  cwd,
  storage,
  approve: args.yes ? async () => "once" : approve,
  // Edits and commands ask before they run (read-only commands do not), for every agent: the same
  // rules as the server and web examples.
  ...examplePermissions(),
});
const session = resumed ?? (await agent.sessions.create({ title: demo ? "Lathe demo" : `lathe-cli in ${cwd}` }));

out.write(`${pc.bold("lathe")} ${pc.dim("— a coding agent built on Lathe")}\n`);
out.write(pc.dim(`model ${fromEnv?.label ?? "offline demo (scripted; set ANTHROPIC_API_KEY, OPENAI_API_KEY or LATHE_BASE_URL for a real one)"}\n`));
out.write(pc.dim(`workspace ${cwd}\nsession ${session.id}${resumed ? " (resumed)" : ""} · agent ${args.agent}\n`));
out.write(pc.dim("Ctrl+C stops a turn, twice exits.\n\n"));
if (resumed) {
  const messages = await agent.sessions.messages(session.id);
  out.write(pc.dim(`${messages.length} message(s) in this session so far.\n\n`));
}

/** Runs one prompt to the end, showing its events. */
async function turn(text: string): Promise<void> {
  const run = agent!.prompt(session.id, text, { agent: args.agent });
  interrupts.watch(run);
  try {
    for await (const event of run) view.show(event);
    const { info } = await run;
    view.finish();
    if (info.finish === "aborted" || run.aborted) out.write(pc.yellow("⏹ turn stopped\n"));
    const tokens = `${info.tokens.input} in / ${info.tokens.output} out`;
    out.write(pc.dim(`${tokens}${info.cost ? ` · $${info.cost.toFixed(4)}` : ""}\n\n`));
  } catch (error) {
    view.finish();
    out.write(pc.red(`${(error as Error).message}\n\n`));
  } finally {
    interrupts.watch(undefined);
  }
}

if (args.prompt) {
  await turn(args.prompt);
  await exit(0);
}
if (demo && !resumed) {
  out.write(`${pc.cyan("›")} ${DEMO_PROMPT}\n`);
  await turn(DEMO_PROMPT);
}
while (!exiting) {
  let text: string;
  try {
    text = await input({ message: pc.cyan("›"), theme: { prefix: "" } });
  } catch (error) {
    if (isPromptClosed(error)) {
      interrupts.press();
      continue;
    }
    throw error;
  }
  const trimmed = text.trim();
  if (trimmed === "") continue;
  if (trimmed === "/exit" || trimmed === "/quit") break;
  await turn(trimmed);
}
await exit(0);
