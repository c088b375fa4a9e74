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
import { historyLines } from "./history-view.ts";
import { Interrupts } from "./interrupts.ts";
import { LiveFooter } from "./live-footer.ts";
import { modelFromEnv } from "./model-from-env.ts";
import { Turns } from "./turns.ts";
import { TurnView } from "./turn-view.ts";
import { TypeAhead } from "./type-ahead.ts";
import { workspaceTrust } from "./workspace-trust.ts";
import { examplePermissions } from "../../shared/permission-rules.ts";

const USAGE = `Usage: lathe-cli [options]

  --demo              use the offline demo model in a temporary project (default when no API key is set)
  --resume <session>  continue a stored session
  --agent <name>      the agent that answers: build (default), plan (read-only), explore
  --db <file>         the SQLite database of sessions (default ~/.lathe/cli.db)
  --cwd <dir>         the workspace (default: the current directory)
  -p, --prompt <text> answer one prompt and exit
  --yes               approve every request without asking
  --trust             trust the workspace without asking (its own tools and command settings may run)
  --sessions          list stored sessions and exit
  -h, --help          show this help

Model: LATHE_BASE_URL (+ LATHE_MODEL, LATHE_API_KEY) for an OpenAI-compatible server,
ANTHROPIC_API_KEY or OPENAI_API_KEY (+ LATHE_MODEL).`;

const OPTIONS = {
  demo: { type: "boolean", default: false },
  resume: { type: "string" },
  agent: { type: "string", default: "build" },
  db: { type: "string" },
  cwd: { type: "string" },
  prompt: { type: "string", short: "p" },
  yes: { type: "boolean", default: false },
  trust: { type: "boolean", default: false },
  sessions: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** `text` as one shell word, quoted when it has to be (a path with spaces). */
const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

// Started by `npm run cli` / `npm run demo`, arguments must follow `--` or npm keeps them for itself.
const viaNpm = process.env.npm_lifecycle_event === "cli" || process.env.npm_lifecycle_event === "demo";
/** The command that runs this CLI again with `extra` arguments, as the user started it. */
const commandWith = (extra: string) =>
  viaNpm ? `npm run ${process.env.npm_lifecycle_event} -- ${extra}` : `node ${shellWord(process.argv[1] ?? "examples/cli/src/main.ts")} ${extra}`;

let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>;
try {
  parsed = parseArgs({ options: OPTIONS });
} catch (error) {
  // A wrong argument is the user's mistake, not a crash: say which, and how to pass arguments.
  console.error(pc.red((error as Error).message.split("\n")[0]!));
  if (viaNpm) console.error(`Arguments for the CLI go after \`--\`: ${commandWith("--resume <session>")}`);
  console.error(`Run with --help for the options.`);
  process.exit(2);
}
const args = parsed.values;
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
const madeHere = demo && !args.cwd && (!resumed || !existsSync(resumed.directory));
if (madeHere) cwd = createDemoWorkspace();
// Asked once per workspace (the demo's own temporary project needs no question).
const trust = await workspaceTrust(cwd, {
  file: join(dirname(dbPath), "trusted-workspaces.json"),
  interactive: !args.prompt && process.stdin.isTTY === true,
  ...(args.trust || madeHere ? { given: "trusted" as const } : {}),
});
if (demo) {
  // The demo's commands call `node`: make it this Node, whatever the PATH had.
  process.env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ""}`;
}
const model: AgentOptions["model"] = fromEnv?.model ?? demoModel({ delayMs: Number(process.env.LATHE_DEMO_DELAY_MS ?? 25) });

let agent: Agent | undefined;
let exiting = false;
// In a terminal (not for one -p prompt) the user may type while the agent works: the turn's output
// goes around a live footer with the input line.
const interactive = !args.prompt && process.stdin.isTTY === true && out.isTTY === true;
const screen = new LiveFooter(out);
const view = new TurnView(out, interactive ? screen : undefined);
let typeAhead: TypeAhead | undefined;
/** Set once the session is open: what the user sent and the agent has not taken yet is dropped at exit. */
let turns: Turns | undefined;
const exit = async (code = 0) => {
  if (exiting) return;
  exiting = true;
  view.finish();
  turns?.dropWaiting();
  typeAhead?.stop();
  screen.stop();
  interrupts.dispose();
  await agent?.close();
  await storage.close();
  const db = args.db ? ` --db ${shellWord(args.db)}` : "";
  out.write(pc.dim(`\nSession kept in ${dbPath}. Resume it with: ${commandWith(`--resume ${session.id}${db}`)}\n`));
  process.exit(code);
};
const interrupts = new Interrupts({ onExit: () => void exit(130), onNotice: (text) => view.note(pc.yellow(text)) });
const approvals = new ApprovalPrompt(out);

/** Approvals being asked: while there is one, its menu has the terminal and the keys. */
let asking = 0;
const approve = async (request: Parameters<ApprovalPrompt["ask"]>[0], { signal }: { signal: AbortSignal }): Promise<PermissionReply> => {
  view.suspend();
  if (asking++ === 0) {
    screen.suspend();
    typeAhead?.pause();
  }
  if (typeof request.metadata.diff === "string" && request.tool) view.diffSeen(request.tool.callID);
  try {
    return await approvals.ask(request, signal);
  } catch (error) {
    if (!(error instanceof PromptInterruptedError)) throw error;
    interrupts.press();
    return "reject";
  } finally {
    if (--asking === 0) {
      typeAhead?.resume();
      screen.resume();
    }
    view.resume();
  }
};

agent = createAgent({
  model,
  cwd,
  trust,
  storage,
  approve: args.yes ? async () => "once" : approve,
  // Edits and commands ask before they run (read-only commands do not), for every agent: the same
  // rules as the server and web examples.
  ...examplePermissions(),
});
const session = resumed ?? (await agent.sessions.create({ title: demo ? "Lathe demo" : `lathe-cli in ${cwd}` }));

out.write(`${pc.bold("lathe")} ${pc.dim("— a coding agent built on Lathe")}\n`);
out.write(pc.dim(`model ${fromEnv?.label ?? "offline demo (scripted; set ANTHROPIC_API_KEY, OPENAI_API_KEY or LATHE_BASE_URL for a real one)"}\n`));
out.write(pc.dim(`workspace ${cwd} (${trust})\nsession ${session.id}${resumed ? " (resumed)" : ""} · agent ${args.agent}\n`));
out.write(pc.dim(`Ctrl+C stops a turn, twice exits.${interactive ? " Type while the agent works: Enter steers the turn, Alt+Enter or /queue queues a turn." : ""}\n\n`));
if (resumed) {
  const messages = await agent.sessions.messages(session.id);
  out.write(pc.dim(`${messages.length} message(s) in this session so far. Where it stopped:\n`));
  out.write(`${historyLines(messages).join("\n")}\n\n`);
}

const conversation = new Turns({ agent, sessionID: session.id, agentName: args.agent, view, screen, interrupts });
turns = conversation;
if (interactive) {
  typeAhead = new TypeAhead(process.stdin, screen, {
    send: (text, mode) => (text === "/exit" || text === "/quit" ? void exit(0) : conversation.send(text, mode)),
    interrupt: () => interrupts.press(),
  });
  conversation.attach(typeAhead);
}
/** What the user typed during the last turn and did not send: the next prompt starts with it. */
let unsent = "";
/** Answers one prompt (and what the user sent meanwhile), showing its events. */
async function turn(text: string): Promise<void> {
  unsent = await conversation.answer(text);
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
    text = await input({ message: pc.cyan("›"), theme: { prefix: "" }, ...(unsent ? { default: unsent, prefill: "editable" as const } : {}) });
    unsent = "";
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
