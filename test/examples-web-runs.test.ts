import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoWorkspace, DEMO_PROMPT } from "../examples/cli/src/demo.ts";
import { answerNext, breakDemoBug, ensureWebBuilt, launchBrowser, shot, waitingCards, watchedPage, webDist, type WatchedPage } from "./web-browser.ts";

// Runs that outlive their clients, in a real Chromium against examples/server running as a child
// process on a SQLite file: leaving a session mid-stream or mid-approval, reloading during an
// approval, two tabs on one session, and the server killed with SIGKILL during an approval and
// started again on the same file. Judged by what the pages show and what storage holds.

const fixture = fileURLToPath(new URL("./fixtures/web-server.ts", import.meta.url));
const TOKEN = "web-runs-token-0123456789abcdef0123456789";
const dir = mkdtempSync(join(tmpdir(), "lathe-web-runs-"));
const dbPath = join(dir, "sessions.db");
let workspace: string;
let child: ChildProcess | undefined;
let url: string;
let port = 0;
let browser: Browser;
let context: BrowserContext;
let w: WatchedPage;
let page: Page;

/** Starts the server process (on the port of the last one, if any) and waits until it listens. */
async function startChild(): Promise<void> {
  const proc = spawn(process.execPath, [fixture, dbPath, workspace, String(port), TOKEN, webDist], { stdio: ["ignore", "pipe", "pipe"] });
  child = proc;
  let output = "";
  url = await new Promise<string>((resolve, reject) => {
    proc.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    proc.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    proc.once("exit", (code) => reject(new Error(`the server exited (${code}): ${output}`)));
  });
  port = Number(new URL(url).port);
}

/** The server's API, as the page's token allows. */
async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}
type Stored = { info: { role: string; finish?: string }; parts: { type: string; tool?: string; callID?: string; text?: string; state?: { status: string } }[] };
const storedMessages = async (sessionID: string) => (await get<{ messages: Stored[] }>(`/sessions/${sessionID}`)).messages;
const activeSessionID = async (p: Page) => (await p.locator('[data-testid="sessions"] li.active').getAttribute("data-session-id"))!;
/** Opens a new session and starts the demo task in it, up to its first approval request. */
async function demoTurnInNewSession(): Promise<void> {
  breakDemoBug(workspace);
  await page.getByTestId("new-session").click();
  await page.getByTestId("empty-state").waitFor();
  await page.getByTestId("prompt").fill(DEMO_PROMPT);
  await page.getByTestId("prompt").press("Enter");
  await waitingCards(page).waitFor({ timeout: 20_000 });
}
/** How many times the project's tests ran (test.js appends a line per run). */
const testRuns = () => readFileSync(join(workspace, "runs.log"), "utf8").split("\n").filter(Boolean).length;

beforeAll(async () => {
  ensureWebBuilt();
  workspace = createDemoWorkspace();
  // Count the runs of `node test.js`: the proof that an approved call ran exactly once.
  const test = join(workspace, "test.js");
  writeFileSync(test, `import { appendFileSync } from "node:fs";\nappendFileSync(new URL("./runs.log", import.meta.url), "ran\\n");\n${readFileSync(test, "utf8")}`);
  writeFileSync(join(workspace, "runs.log"), "");
  await startChild();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1100, height: 820 } });
  w = await watchedPage(context);
  page = w.page;
  await page.goto(`${url}/#token=${TOKEN}`);
  await page.getByTestId("empty-state").waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  child?.kill("SIGKILL");
});

describe("examples/web: runs belong to the server", () => {
  it("leaving mid-stream and mid-approval: the run goes on, and coming back the approval is answerable", async () => {
    // A long answer streams; leave for another session while it does.
    await page.getByTestId("prompt").fill("Tell me about yourself");
    await page.getByTestId("prompt").press("Enter");
    await page.getByText("This is Lathe's offline demo model").waitFor({ timeout: 20_000 });
    const first = await activeSessionID(page);
    await page.getByTestId("new-session").click();
    await page.getByTestId("empty-state").waitFor();
    // Left while the answer was still streaming: the server still runs it.
    const listed = await get<{ sessions: { id: string; status: string }[] }>("/sessions");
    expect(listed.sessions.find((s) => s.id === first)!.status).toBe("working");
    // Come back: the run went on without this page and finished whole, not aborted.
    await page.locator(`[data-session-id="${first}"] button`).click();
    await page.getByText("Press Ctrl+C while I am talking to interrupt me.").waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await storedMessages(first)).at(-1)!.info.finish, { timeout: 10_000 }).toBe("stop");

    // Now leave while a call waits for approval: the list says the other session waits for you.
    await page.getByTestId("prompt").fill(DEMO_PROMPT);
    await page.getByTestId("prompt").press("Enter");
    await waitingCards(page).waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="sessions"] li:not(.active) button').first().click();
    const away = page.locator(`[data-session-id="${first}"]`);
    await expect.poll(() => away.getAttribute("data-status"), { timeout: 10_000 }).toBe("waiting");
    await shot(page, "waiting-in-list");
    await away.locator("button").click();
    // Still waiting, still answerable; answering lets the run go on.
    expect(await answerNext(page)).toBe("bash");
    await page.locator('[data-testid="tool-card"][data-tool="edit"][data-state="approval-requested"]').waitFor({ timeout: 20_000 });
    expect(await w.ghosts()).toEqual([]);
  }, 90_000);

  it("a reload during an approval: still pending, with its diff; answering finishes the turn", async () => {
    await page.reload();
    const edit = page.locator('[data-testid="tool-card"][data-tool="edit"][data-state="approval-requested"]');
    await edit.waitFor({ timeout: 20_000 });
    expect(await edit.locator(".diff-add").first().innerText()).toContain("return a + b;");
    const sessionID = await activeSessionID(page);
    // Nobody answered: nothing stored as rejected.
    const waitingEdit = (await storedMessages(sessionID)).flatMap((m) => m.parts).find((p) => p.tool === "edit")!;
    expect(waitingEdit.state!.status).toBe("running");
    expect(await answerNext(page)).toBe("edit");
    expect(await answerNext(page)).toBe("bash");
    await page.getByText("All three tests pass now").waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await storedMessages(sessionID)).at(-1)!.info.finish, { timeout: 10_000 }).toBe("stop");
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a + b;");
    expect(await w.ghosts()).toEqual([]);
  }, 60_000);

  it("two tabs on one session see the same run; an answer in one disappears from the other", async () => {
    await demoTurnInNewSession();
    // The second tab opens the session this browser had open last, and joins its run.
    const second = await watchedPage(context);
    try {
      await second.page.goto(url);
      await waitingCards(second.page).waitFor({ timeout: 20_000 });
      expect(await activeSessionID(second.page)).toBe(await activeSessionID(page));
      await shot(second.page, "second-tab");
      // Answer in the first tab: the second sees the card answered and the run going on.
      await answerNext(page);
      await second.page.locator('[data-testid="tool-card"][data-tool="bash"][data-state="output-available"]').waitFor({ timeout: 20_000 });
      await second.page.getByText("Two add checks fail").waitFor({ timeout: 20_000 });
      // And the other way round.
      await waitingCards(second.page).waitFor({ timeout: 20_000 });
      await answerNext(second.page);
      await page.locator('[data-testid="tool-card"][data-tool="edit"][data-state="output-available"]').waitFor({ timeout: 20_000 });
      await answerNext(page);
      await page.getByText("All three tests pass now").waitFor({ timeout: 20_000 });
      await second.page.getByText("All three tests pass now").waitFor({ timeout: 20_000 });
      expect(await second.ghosts()).toEqual([]);
      expect(second.errors).toEqual([]);
    } finally {
      await second.page.close();
    }
  }, 90_000);

  it("kill -9 during an approval, restart on the same SQLite file, approve: the turn completes and the call ran once", async () => {
    await demoTurnInNewSession();
    const sessionID = await activeSessionID(page);
    const runsBefore = testRuns();

    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child!.kill("SIGKILL");
    await exited;
    await page.getByTestId("reconnecting").waitFor({ timeout: 10_000 });
    await shot(page, "reconnecting");
    await startChild();
    await page.getByTestId("reconnecting").waitFor({ state: "detached", timeout: 15_000 });

    // The request outlived the process: still waiting; approving it resumes the turn to its end.
    expect(await answerNext(page)).toBe("bash");
    expect(await answerNext(page)).toBe("edit");
    expect(await answerNext(page)).toBe("bash");
    await page.getByText("All three tests pass now").waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await storedMessages(sessionID)).at(-1)!.info.finish, { timeout: 10_000 }).toBe("stop");
    // Each approved `node test.js` ran exactly once: two calls, two runs.
    expect(testRuns() - runsBefore).toBe(2);
    const calls = (await storedMessages(sessionID)).flatMap((m) => m.parts).filter((p) => p.type === "tool");
    expect(calls.map((p) => `${p.tool}:${p.state!.status}`)).toEqual(["bash:completed", "read:completed", "edit:completed", "bash:completed"]);
    expect(new Set(calls.map((p) => p.callID)).size).toBe(4);
    expect(await w.ghosts()).toEqual([]);
    expect(w.errors).toEqual([]);
    expect(await w.rejections()).toEqual([]);
  }, 90_000);
});
