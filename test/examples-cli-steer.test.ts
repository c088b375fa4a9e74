import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SqliteStorage } from "@lathe/storage";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TmuxPane } from "./examples-tmux.js";
import { serveLocally, type LocalServer } from "./local-server.ts";
import { finishChunks, textChunks, toolCallChunks } from "./openai-server.ts";

// examples/cli in a terminal (tmux), typing while the agent works: the model is the real
// OpenAI-compatible provider pointed at a local server whose steps the test holds open, so the typing
// happens at a known step, and whose request bodies show what the model was sent.
const root = fileURLToPath(new URL("..", import.meta.url));
const main = join(root, "examples", "cli", "src", "main.ts");

type Body = { messages: Array<{ role: string; content: unknown }> };
type Send = (chunks: unknown[]) => void;
/** One model step: what the server streams for a request (it may wait for the test first). */
type Step = (body: Body, send: Send) => Promise<void> | void;

/** A gate the test opens to let a held step finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** The text of a chat message's content, whatever its shape (a string or text parts). */
const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? "").join("") : "";

/** The texts the user wrote in a request, in order (the environment and workspace listing Lathe adds left out). */
const userTexts = (body: Body) =>
  body.messages.filter((message) => message.role === "user").map((message) => textOf(message.content).replace(/<(environment|workspace)>[\s\S]*?<\/\1>/g, "").trim());

let dir: string;
let server: LocalServer | undefined;
let pane: TmuxPane | undefined;
let requests: Body[];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lathe-cli-steer-"));
  writeFileSync(join(dir, "notes.txt"), "the notes\n");
  requests = [];
});
afterEach(async () => {
  pane?.close();
  pane = undefined;
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the fake model with these steps and the CLI on it, in a terminal, and sends `prompt`. */
async function start(steps: Step[], prompt = "start", width = 120): Promise<TmuxPane> {
  server = await serveLocally(async (raw, res) => {
    const body = JSON.parse(raw) as Body;
    requests.push(body);
    const step = steps[requests.length - 1];
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const send: Send = (chunks) => {
      for (const chunk of chunks) if (!res.destroyed) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    };
    if (step) await step(body, send);
    else send([...textChunks("(no more steps)"), ...finishChunks("stop")]);
    if (!res.destroyed) res.end("data: [DONE]\n\n");
  });
  const env = [`LATHE_BASE_URL=${server.url}`, "LATHE_MODEL=local-model", "ANTHROPIC_API_KEY=", "OPENAI_API_KEY="];
  const argv = ["env", ...env, process.execPath, main, "--db", join(dir, "cli.db"), "--cwd", dir, "--trust", "--yes"];
  const started = new TmuxPane(argv, { cwd: root, width });
  await started.waitFor("Ctrl+C stops a turn");
  await sleep(500); // the prompt drops keys typed before it is drawn
  started.type(prompt);
  started.keys("Enter");
  return started;
}

/** Exits the CLI with Ctrl+C twice (at the prompt) and reads the session it stored. */
async function exitAndRead() {
  pane!.keys("C-c");
  await sleep(100);
  pane!.keys("C-c");
  await pane!.waitFor("EXITED-130");
  const storage = new SqliteStorage(join(dir, "cli.db"));
  try {
    const [session] = (await storage.listSessions({ limit: 1 })).sessions;
    return { session: session!, messages: await storage.listMessages(session!.id) };
  } finally {
    await storage.close();
  }
}

const read = (id: string): Step => (_body, send) => send([...toolCallChunks(id, "read", { path: "notes.txt" }), ...finishChunks("tool_calls")]);
const say = (text: string): Step => (_body, send) => send([...textChunks(text), ...finishChunks("stop")]);
/** Streams `first`, waits for the gate, then ends the step with `rest`. */
const held = (first: string, opened: Promise<void>, rest: Step): Step => async (body, send) => {
  send(textChunks(first));
  await opened;
  await rest(body, send);
};

describe("examples/cli: typing while the agent works", () => {
  it("steers a line typed during step 2 into the running turn: queued until the next request, then shown where it entered", { timeout: 60_000 }, async () => {
    const step2 = gate();
    pane = await start([
      (body, send) => send([...textChunks("Step one."), ...toolCallChunks("call_1", "read", { path: "notes.txt" }), ...finishChunks("tool_calls")]),
      held("Step two, reading again.", step2.opened, read("call_2")),
      (body, send) => send([...textChunks(`Heard: ${userTexts(body).at(-1)}.`), ...toolCallChunks("call_3", "read", { path: "notes.txt" }), ...finishChunks("tool_calls")]),
      say("All done."),
    ]);
    await pane.waitFor("Step two, reading"); // its last word is held back until the line goes on
    pane.type("use the other file");
    await pane.waitFor("› use the other file");
    pane.keys("Enter");
    // Sent, not yet read by the model: shown as waiting in the footer, not in the transcript.
    let screen = await pane.waitFor("↳ queued: use the other file (the agent reads it at its next step)");
    expect(requests).toHaveLength(2);
    step2.open();
    screen = await pane.waitFor(/All done\.\n.*in \/ \d+ out/);
    // The third request carries it as the newest user message, after step 2's tool result.
    expect(requests).toHaveLength(4);
    const third = requests[2]!;
    expect(third.messages.at(-1)).toMatchObject({ role: "user" });
    expect(textOf(third.messages.at(-1)!.content)).toContain("use the other file");
    expect(third.messages.at(-2)).toMatchObject({ role: "tool" });
    expect(userTexts(requests[1]!)).not.toContain("use the other file");
    // In the transcript it stands where it entered the turn: after step 2's call, before step 3's answer.
    expect(screen).toMatch(/Step two, reading again\.\n✔ read notes\.txt [^\n]*\n› use the other file\nHeard: use the other file\.\n✔ read notes\.txt/);
    // The footer's marker is gone, and the turn went on as one turn: one usage line.
    expect(screen).not.toContain("↳ queued");
    expect(screen.match(/\d+ in \/ \d+ out/g)).toHaveLength(1);
    // Stored as the session holds it: user → answer → user (the steered one) → answer.
    const { messages } = await exitAndRead();
    expect(messages.map((message) => message.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("queues with /queue and Alt+Enter: each waits as queued, then gets its own turn, in order", { timeout: 60_000 }, async () => {
    const first = gate();
    pane = await start([
      held("Working on the first.", first.opened, say(" First done.")),
      (body, send) => send([...textChunks(`Second: ${userTexts(body).at(-1)}.`), ...finishChunks("stop")]),
      (body, send) => send([...textChunks(`Third: ${userTexts(body).at(-1)}.`), ...finishChunks("stop")]),
    ]);
    await pane.waitFor("Working on the");
    pane.type("/queue then the docs");
    pane.keys("Enter");
    pane.type("and the changelog");
    pane.keys("M-Enter");
    let screen = await pane.waitFor(/↳ queued: then the docs \(its own turn, after this one\)\n↳ queued: and the changelog \(its own turn, after this one\)/);
    expect(requests).toHaveLength(1);
    first.open();
    screen = await pane.waitFor(/Third: and the changelog\.\n.*in \/ \d+ out/);
    expect(requests.map((body) => userTexts(body).at(-1))).toEqual(["start", "then the docs", "and the changelog"]);
    // Three turns, one after the other, each starting with its message.
    expect(screen).toMatch(/Working on the first\. First done\.\n.*in \/ \d+ out[\s\S]*› then the docs\nSecond: then the docs\.\n.*in \/ \d+ out[\s\S]*› and the changelog\nThird: and the changelog\./);
    const transcript = screen.slice(screen.indexOf("› start"));
    expect(transcript).not.toContain("↳ queued");
    expect(transcript).not.toContain("/queue");
  });

  it("Ctrl+C stops the turn and takes the waiting messages back into the input line; Enter sends them; twice exits", { timeout: 60_000 }, async () => {
    const never = gate();
    pane = await start([held("Thinking for a long time.", never.opened, say("never")), (body, send) => send([...textChunks(`Now: ${userTexts(body).at(-1)}.`), ...finishChunks("stop")])]);
    await pane.waitFor("Thinking for a long");
    pane.type("use b.txt");
    pane.keys("Enter");
    await pane.waitFor("↳ queued: use b.txt (the agent reads it at its next step)");
    pane.type("/queue later please");
    pane.keys("Enter");
    await pane.waitFor("↳ queued: later please (its own turn, after this one)");
    pane.keys("C-c");
    let screen = await pane.waitFor(/turn stopped\n.*out/);
    expect(screen).toContain("2 message(s) not taken by the agent yet are back in the input line");
    expect(screen).toContain("Interrupted. Press Ctrl+C again to exit.");
    // Nothing answered them: no second request, and the prompt holds them, ready to edit or send.
    await pane.waitFor(/› use b\.txt later please\s*$/);
    await sleep(300);
    expect(requests).toHaveLength(1);
    pane.keys("Enter");
    screen = await pane.waitFor(/Now: use b\.txt later please\.\n.*in \/ \d+ out/);
    expect(requests).toHaveLength(2);
    expect(userTexts(requests[1]!).slice(1)).toEqual(["use b.txt later please"]);
    await sleep(2_100);
    // The steered message left the session's history and the queued one its queue.
    const { session, messages } = await exitAndRead();
    expect(session.queue ?? []).toEqual([]);
    const users = messages.filter((message) => message.info.role === "user");
    expect(users.map((message) => message.parts.flatMap((part) => (part.type === "text" && !part.synthetic ? [part.text] : [])).join(""))).toEqual(["start", "use b.txt later please"]);
  });
});

describe("examples/cli: exiting while the agent works", () => {
  /** Starts a turn that never ends, queues a message during it, and exits with `keys`; returns the stored session. */
  async function exitWithQueued(exitKeys: () => Promise<void>, code: number) {
    const never = gate();
    pane = await start([held("Thinking for a long time.", never.opened, say("never"))]);
    await pane.waitFor("Thinking for a long");
    pane.type("/queue later");
    pane.keys("Enter");
    await pane.waitFor("↳ queued: later");
    await exitKeys();
    const screen = await pane.waitFor(`EXITED-${code}`);
    expect(screen).toMatch(/Resume it with: .*--resume ses_\w+/);
    const storage = new SqliteStorage(join(dir, "cli.db"));
    try {
      const [session] = (await storage.listSessions({ limit: 1 })).sessions;
      return { session: session!, users: (await storage.listMessages(session!.id)).filter((message) => message.info.role === "user") };
    } finally {
      await storage.close();
    }
  }

  it("a second Ctrl+C during the turn exits at once, leaving nothing queued to run later", { timeout: 60_000 }, async () => {
    const { session, users } = await exitWithQueued(async () => {
      pane!.keys("C-c");
      await sleep(100);
      pane!.keys("C-c");
    }, 130);
    expect(session.queue ?? []).toEqual([]);
    expect(users).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });

  it("/exit typed during the turn exits, and drops what the agent has not taken", { timeout: 60_000 }, async () => {
    const { session, users } = await exitWithQueued(async () => {
      pane!.type("/exit");
      pane!.keys("Enter");
    }, 0);
    expect(session.queue ?? []).toEqual([]);
    expect(users).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });
});

describe("examples/cli: the input line beside streamed text", () => {
  it("keeps the answer word-wrapped and whole while the user types, and hands the unsent line to the next prompt", { timeout: 60_000 }, async () => {
    const width = 50;
    const answer =
      "Streaming a long answer while somebody types underneath it: every word stays whole, every line fits the " +
      "terminal, and the letters typed below never land inside the model's text, however the chunks arrive.";
    const typing = gate();
    pane = await start(
      [
        async (_body, send) => {
          const chunks = textChunks(answer, 7);
          for (const [index, chunk] of chunks.entries()) {
            send([chunk]);
            if (index === 3) typing.open();
            await sleep(40);
          }
          send(finishChunks("stop"));
        },
      ],
      "go",
      width,
    );
    await typing.opened;
    for (const piece of ["half a", " thought", "X"]) {
      pane.type(piece);
      await sleep(120);
    }
    pane.keys("BSpace");
    const screen = await pane.waitFor(/chunks arrive\.\n.*in \/ \d+ out/);
    const lines = screen.split("\n");
    const first = lines.findIndex((line) => line.startsWith("Streaming a long"));
    const last = lines.findIndex((line) => line.endsWith("chunks arrive."));
    const shown = lines.slice(first, last + 1);
    for (const line of shown) expect(line.length).toBeLessThanOrEqual(width);
    expect(shown.map((line) => line.trim()).join(" ")).toBe(answer);
    // Typed and not sent: the next prompt starts with it, ready to edit.
    await pane.waitFor(/› half a thought\s*$/);
    expect(requests).toHaveLength(1);
  });
});

describe("examples/cli: typing while an approval menu is shown", () => {
  it("the menu takes the keys; the line typed before it stays, and a message steered before it enters the next step", { timeout: 60_000 }, async () => {
    const demoDir = mkdtempSync(join(tmpdir(), "lathe-cli-steer-demo-"));
    let workspace: string | undefined;
    try {
      // The demo model, slowed so that the typing happens before its first approval menu.
      pane = new TmuxPane(["env", "LATHE_DEMO_DELAY_MS=150", process.execPath, main, "--demo", "--db", join(demoDir, "cli.db")], { cwd: root });
      await pane.waitFor("I'll run the");
      workspace = /workspace (\S+)/.exec(pane.screen())![1]!;
      pane.type("also check multiply");
      pane.keys("Enter");
      await pane.waitFor("↳ queued: also check multiply (the agent reads it at its next step)");
      pane.type("draft");
      await pane.waitFor("› draft");
      let screen = await pane.waitFor("Reject with feedback");
      // While the menu is up, the footer is not drawn under it.
      expect(screen).not.toContain("↳ queued");
      pane.keys("Down", "Enter"); // allow always
      screen = await pane.waitFor("✔ allowed always (this session)");
      // The menu took the keys (Down, Enter): the line holds what was typed before it, unsent.
      screen = await pane.waitFor(/✔ bash Run the tests[\s\S]*› also check multiply\nNoted: "also check multiply"\. Two `add` checks fail\./);
      expect(screen).toMatch(/\n› draft\s*$/);
      expect(screen).not.toContain("↳ queued");
    } finally {
      pane?.close();
      rmSync(demoDir, { recursive: true, force: true });
      if (workspace) rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe("examples/cli's live footer, against a real terminal", () => {
  /** The rows a terminal of `width` columns shows `text` on: each line, cut where the row ends. */
  const rowsOf = (text: string, width: number) =>
    text.split("\n").flatMap((line) => (line.length === 0 ? [""] : Array.from({ length: Math.ceil(line.length / width) }, (_, i) => line.slice(i * width, (i + 1) * width))));
  const fixture = join(root, "test", "fixtures", "live-footer-ops.ts");

  it("keeps generated transcript writes and footer changes apart: the transcript reads as written, the footer sits under it, and leaves nothing behind", { timeout: 90_000 }, async () => {
    // Twelve generated runs, on terminals 20 to 79 columns wide.
    for (const seed of Array.from({ length: 12 }, (_, i) => i + 1)) {
      const width = 20 + ((seed * 37) % 60);
      const expectedFile = join(dir, `expected-${seed}.json`);
      pane = new TmuxPane([process.execPath, fixture, String(seed), expectedFile], { cwd: root, width, height: 16 });
      await pane.waitFor(`END-${seed}`);
      while (!existsSync(expectedFile)) await sleep(20);
      const expected = JSON.parse(readFileSync(expectedFile, "utf8")) as { transcript: string; footer: string[]; width: number };
      expect(expected.width).toBe(width);
      const rows = (screen: string) => screen.split("\n").map((row) => row.trimEnd());
      const transcriptRows = rowsOf(expected.transcript, width);
      // A transcript that ends with a line break leaves an empty row: the footer starts there.
      if (transcriptRows.at(-1) === "") transcriptRows.pop();
      const shown = [...transcriptRows, ...expected.footer].map((row) => row.trimEnd());
      expect(rows(pane.screen(false, true)).slice(0, shown.length), `seed ${seed}`).toEqual(shown);
      // Taken away, the footer leaves the transcript as written, and the next write goes on after it.
      pane.keys("x");
      await pane.waitFor("DONE");
      const done = rowsOf(`${expected.transcript}DONE`, width).map((row) => row.trimEnd());
      const screen = rows(pane.screen(false, true));
      expect(screen.slice(0, done.length), `seed ${seed}`).toEqual(done);
      expect(screen.slice(done.length).join("").replace(/EXITED-0/, "").trim(), `seed ${seed}`).toBe("");
      pane.close();
      pane = undefined;
    }
  });
});
