import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify, stripVTControlCharacters } from "node:util";
import { SqliteStorage } from "@lathe/storage";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TmuxPane } from "./examples-tmux.js";

// examples/cli, driven the way a person uses it: in a pseudo-terminal (tmux), with the offline demo
// model, the built packages (dist/) and a throwaway SQLite database.
const root = fileURLToPath(new URL("..", import.meta.url));
const main = join(root, "examples", "cli", "src", "main.ts");

let dir: string;
let pane: TmuxPane | undefined;
const workspaces: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lathe-cli-test-"));
});
afterEach(() => {
  pane?.close();
  pane = undefined;
  rmSync(dir, { recursive: true, force: true });
  for (const workspace of workspaces.splice(0)) rmSync(workspace, { recursive: true, force: true });
});

const cli = (...args: string[]) => [process.execPath, main, "--demo", "--db", join(dir, "cli.db"), ...args];
/** The demo's temporary workspace, as the banner names it (removed after the test). */
const workspaceOf = (screen: string) => {
  const workspace = /workspace (\S+)/.exec(screen)![1]!;
  if (!workspaces.includes(workspace)) workspaces.push(workspace);
  return workspace;
};

describe("examples/cli in a terminal", () => {
  it("streams the demo, asks for approvals, shows a coloured diff, stops a turn on Ctrl+C and exits on a second", { timeout: 90_000 }, async () => {
    pane = new TmuxPane(cli(), { cwd: root });
    // The question's line is drawn before its choices: wait for the last choice.
    let screen = await pane.waitFor("Reject with feedback");
    expect(screen).toContain("Allow bash node test.js");
    expect(screen).toContain("I'll run the tests first to see what fails.");
    const workspace = workspaceOf(screen);
    expect(screen).toMatch(/Allow once[\s\S]*Allow always \(node test\.js, for this session\)[\s\S]*Reject[\s\S]*Reject with feedback/);
    pane.keys("Down", "Enter"); // allow always

    screen = await pane.waitFor("Allow edit src/math.js");
    expect(screen).toMatch(/✔ bash Run the tests \d+\.\ds/);
    expect(screen).toContain("2 failing");
    expect(screen).toMatch(/✔ read src\/math\.js/);
    expect(pane.screen(true)).toMatch(/\x1b\[32m\+  return a \+ b;/); // the added line, green
    expect(pane.screen(true)).toMatch(/\x1b\[31m-  return a - b;/); // the removed line, red
    pane.keys("Enter"); // allow once

    // The second test run is covered by "always"; the turn ends with the model's summary.
    screen = await pane.waitFor(/All three tests pass now[\s\S]*in \/ \d+ out/);
    expect(screen).toContain("all tests pass");
    expect(screen.match(/Allow bash/g)).toHaveLength(1);
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a + b;");

    // A second prompt streams a long answer; Ctrl+C stops it half-way.
    const before = pane.screen().length;
    pane.type("who are you?");
    pane.keys("Enter");
    await pane.waitFor("offline demo model", 15_000, before);
    pane.keys("C-c");
    screen = await pane.waitFor(/turn stopped\n.*out/, 15_000, before);
    expect(screen).toContain("Interrupted. Press Ctrl+C again to exit.");
    expect(screen).not.toContain("Press Ctrl+C while I am talking to interrupt me.");
    // Text streamed before the stop: its size is estimated, not reported as nothing.
    expect(screen.slice(before)).toMatch(/input not reported \/ ~\d+ out \(estimated: stopped before the model reported its usage\)/);
    expect(screen.slice(before)).not.toContain("0 in / 0 out");

    // Back at the prompt: Ctrl+C twice exits, leaving the session to resume.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    pane.keys("C-c");
    await pane.waitFor(/Press Ctrl\+C again to exit\.\s*\n[\s\S]*›/, 15_000, before + screen.slice(before).indexOf("turn stopped"));
    pane.keys("C-c");
    screen = await pane.waitFor("EXITED-130");
    expect(screen).toMatch(/Resume it with: node \S+main\.ts --resume ses_\w+ --db \S+cli\.db/);
  });

  it("Ctrl+C at an approval clears its menu and stops the turn", { timeout: 60_000 }, async () => {
    pane = new TmuxPane(cli(), { cwd: root });
    await pane.waitFor("Reject with feedback");
    workspaceOf(pane.screen());
    pane.keys("C-c");
    const screen = await pane.waitFor(/turn stopped\n.*out/);
    expect(screen).toContain("Allow bash node test.js"); // the request itself stays, as a record
    expect(screen).toContain("⏹ interrupted");
    for (const line of ["Your answer", "Allow once", "Allow always", "Reject with feedback", "Stop the turn"]) expect(screen).not.toContain(line);
  });

  it("wraps streamed text at word boundaries, never inside a word", { timeout: 60_000 }, async () => {
    const width = 47;
    pane = new TmuxPane(cli("--yes", "-p", "who are you?"), { cwd: root, width });
    const screen = await pane.waitFor("EXITED-0");
    workspaceOf(screen);
    const lines = screen.split("\n");
    const first = lines.findIndex((line) => line.startsWith("This is Lathe's"));
    const last = lines.findIndex((line) => line.endsWith("interrupt me."));
    expect(first).toBeGreaterThan(0);
    const answer = lines.slice(first, last + 1);
    expect(answer.length).toBeGreaterThan(5);
    for (const line of answer) expect(line.length).toBeLessThanOrEqual(width);
    // Joined with single spaces, the lines give the answer back: no line break fell inside a word.
    expect(answer.map((line) => line.trim()).join(" ")).toBe(
      "This is Lathe's offline demo model, so it only knows one task: fixing the bug in this project. " +
        "Everything you saw was real, though — the tool calls ran in a temporary folder, the approvals went " +
        "through Lathe's permission engine, and the session is stored in SQLite, so `--resume` picks it up again. " +
        "To talk to a real model, set ANTHROPIC_API_KEY, OPENAI_API_KEY, or LATHE_BASE_URL (any OpenAI-compatible " +
        "server) and start the CLI again. Press Ctrl+C while I am talking to interrupt me.",
    );
  });

  it("sends a rejection's feedback to the model, which stops", { timeout: 60_000 }, async () => {
    pane = new TmuxPane(cli(), { cwd: root });
    await pane.waitFor("Allow bash node test.js");
    pane.keys("Down", "Down", "Down", "Enter");
    await pane.waitFor("What should the agent do instead?");
    pane.type("read the code first");
    pane.keys("Enter");
    const screen = await pane.waitFor(/Understood — I stopped there\.[\s\S]*read the code first/);
    expect(screen).toContain("✖ rejected with feedback: read the code first");
    expect(screen).toMatch(/✖ bash/);
    expect(readFileSync(join(workspaceOf(screen), "src", "math.js"), "utf8")).toContain("return a - b;");
  });
});

describe("examples/cli and workspace trust", () => {
  it("asks once whether to trust a workspace it did not make, remembers the answer, and starts untrusted by default", { timeout: 60_000 }, async () => {
    const ws = mkdtempSync(join(tmpdir(), "lathe-cli-trust-"));
    workspaces.push(ws);
    pane = new TmuxPane(cli("--cwd", ws), { cwd: root });
    let screen = await pane.waitFor("I trust the authors of these files");
    expect(screen).toContain(`Do you trust the files in ${ws}?`);
    pane.keys("Down", "Enter");
    screen = await pane.waitFor(`workspace ${ws} (trusted)`);
    pane.close();
    expect(JSON.parse(readFileSync(join(dir, "trusted-workspaces.json"), "utf8"))).toEqual({ workspaces: { [ws]: "trusted" } });
    // Asked once: the next start knows the answer.
    pane = new TmuxPane(cli("--cwd", ws), { cwd: root });
    screen = await pane.waitFor(`workspace ${ws} (trusted)`);
    expect(screen).not.toContain("Do you trust");
    pane.close();
    // A script is never asked and never trusts a workspace it was not told about.
    const other = mkdtempSync(join(tmpdir(), "lathe-cli-trust-"));
    workspaces.push(other);
    const { stdout } = await promisify(execFile)(process.execPath, [main, "--demo", "--db", join(dir, "cli.db"), "--cwd", other, "--yes", "-p", "hi"], { cwd: root, timeout: 60_000 });
    expect(stripVTControlCharacters(stdout)).toContain(`workspace ${other} (untrusted)`);
  });
});

describe("examples/cli without a terminal", () => {
  // Colours stay on where the environment asks for them (CI=true does), so they are taken off here.
  const run = async (...args: string[]) => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [main, "--demo", "--db", join(dir, "cli.db"), ...args], { cwd: root, timeout: 60_000 });
    return { stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) };
  };

  it("answers one prompt with --yes, then resumes the stored session in the same workspace", async () => {
    const first = await run("--yes", "-p", "Fix the failing tests");
    expect(first.stdout).toContain("All three tests pass now");
    const sessionID = /session (ses_\w+)/.exec(first.stdout)![1]!;
    const workspace = workspaceOf(first.stdout);
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a + b;");

    expect(first.stderr).toBe("");

    const second = await run("--resume", sessionID, "-p", "thanks, who are you?");
    expect(second.stdout).toContain(`session ${sessionID} (resumed)`);
    // The end of the conversation so far, before the new prompt.
    const history = second.stdout.slice(second.stdout.indexOf("Where it stopped:"), second.stdout.indexOf("thanks, who are you?"));
    expect(history).toContain("› Fix the failing tests");
    expect(history).toMatch(/✔ bash Run the tests[\s\S]*✔ read src\/math\.js[\s\S]*✔ edit src\/math\.js/);
    expect(history).toContain("All three tests pass now.");
    expect(second.stdout).toContain(`workspace ${workspace}`);
    expect(second.stdout).toContain("offline demo model");
    const storage = new SqliteStorage(join(dir, "cli.db"));
    try {
      const messages = await storage.listMessages(sessionID);
      expect(messages.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    } finally {
      await storage.close();
    }
  });

  it("lets the plan agent look but not edit", async () => {
    const { stdout } = await run("--yes", "--agent", "plan", "-p", "Fix the failing tests");
    expect(stdout).toContain("agent plan");
    expect(stdout).toMatch(/✖ edit src\/math\.js/);
    expect(stdout).toContain("Understood — I stopped there.");
    expect(readFileSync(join(workspaceOf(stdout), "src", "math.js"), "utf8")).toContain("return a - b;");
  });

  it("through npm: the exit hint is a command that resumes; arguments npm kept for itself get a clear error, not a stack trace", { timeout: 120_000 }, async () => {
    const npm = (args: string[]) => promisify(execFile)("npm", args, { cwd: root, timeout: 100_000 }).then(({ stdout, stderr }) => ({ stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) }));
    const first = await npm(["run", "demo", "--", "--db", join(dir, "cli.db"), "--yes", "-p", "Fix the failing tests"]);
    workspaceOf(first.stdout);
    expect(first.stderr).not.toContain("ExperimentalWarning");
    const hint = /Resume it with: (npm run demo -- --resume (ses_\w+) --db \S+)/.exec(first.stdout);
    expect(hint).not.toBeNull();
    const resumed = await promisify(execFile)("sh", ["-c", `${hint![1]} -p "who are you?"`], { cwd: root, timeout: 100_000 });
    expect(stripVTControlCharacters(resumed.stdout)).toContain(`session ${hint![2]} (resumed)`);
    expect(stripVTControlCharacters(resumed.stdout)).toContain("› Fix the failing tests");

    // `npm run demo --resume <id>` (no `--`): npm takes --resume, the CLI gets a bare id.
    const wrong = await npm(["run", "demo", "--resume", hint![2]!]).catch((error: { code: number; stderr: string }) => error);
    expect(wrong).toMatchObject({ code: 2 });
    const stderr = stripVTControlCharacters((wrong as { stderr: string }).stderr);
    expect(stderr).toContain("Arguments for the CLI go after `--`: npm run demo -- --resume <session>");
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it("fails clearly on an unknown session", async () => {
    await expect(run("--resume", "ses_nope")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("No session ses_nope") });
  });
});
