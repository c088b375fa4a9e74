import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, type Agent } from "@lathe/core";
import { SqliteStorage } from "@lathe/storage";
import { createDemoWorkspace, DEMO_PROMPT } from "../examples/cli/src/demo.ts";
import { startServer, type RunningServer } from "../examples/server/src/server.ts";
import { examplePermissions } from "../examples/shared/permission-rules.ts";
import { webDemoModel } from "../examples/web/src/web-demo.ts";
import { answerNext, breakDemoBug, ensureWebBuilt, launchBrowser, overflowsSideways, shot, waitingCards, watchedPage, webDist, type WatchedPage } from "./web-browser.ts";

// examples/web as a user meets it, in a real headless Chromium: the built app served by
// examples/server with the offline demo model. One browser; a desktop page for the story of a
// session, a phone-sized page, then the server going away and coming back. What counts is what is
// on screen and in storage. LATHE_SCREENSHOTS=1 saves the screenshots shown in docs/web.md.

let server: RunningServer;
let agent: Agent;
let storage: SqliteStorage;
let browser: Browser;
let desktop: BrowserContext;
let w: WatchedPage;
let page: Page;
let workspace: string;
const TOKEN = "web-test-token-0123456789abcdef0123456789";

const serve = (port = 0) => startServer({ agent, port, hostname: "127.0.0.1", staticRoot: webDist, token: TOKEN });
const pageURL = () => server.pageUrl;

beforeAll(async () => {
  ensureWebBuilt();
  workspace = createDemoWorkspace();
  storage = new SqliteStorage(join(mkdtempSync(join(tmpdir(), "lathe-web-db-")), "sessions.db"));
  agent = createAgent({
    model: webDemoModel({ delayMs: 8 }),
    cwd: workspace,
    storage,
    ...examplePermissions(), // the rules `npm run web` gives its agent
  });
  server = await serve();
  browser = await launchBrowser();
  desktop = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  w = await watchedPage(desktop);
  page = w.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await agent?.close();
  await storage?.close();
});

// Runs in the page (this file is type-checked without the DOM's types).
const backgroundOf = new Function("el", "return getComputedStyle(el).backgroundColor") as (el: unknown) => string;
const lastStored = async () => {
  const [session] = (await agent.sessions.list()).sessions;
  return (await agent.sessions.messages(session!.id)).at(-1)!;
};

describe("examples/web in Chromium", () => {
  it("a turn with approvals: one card per call at every moment, folded reasoning, Markdown, Esc stops, revert asks first", async () => {
    await page.goto(pageURL());
    // The token moved from the address into storage.
    await page.getByTestId("empty-state").waitFor();
    expect(page.url()).not.toContain("token");
    expect(await page.evaluate("localStorage.getItem('lathe-token')")).toBe(TOKEN);
    await shot(page, "empty");

    // No session yet: the first message starts one. Enter sends.
    await page.getByTestId("prompt").fill(DEMO_PROMPT);
    await page.getByTestId("prompt").press("Enter");

    // The answer streams: reasoning is open while it streams, text appears while the run goes on.
    await page.getByText("I'll run the tests first").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("reasoning").first().innerText()).toContain("Next I should use bash");

    // bash waits for approval; the list names the session after the prompt and says it waits.
    await waitingCards(page).waitFor({ timeout: 20_000 });
    const entry = page.locator('[data-testid="sessions"] li.active');
    await expect.poll(() => entry.getAttribute("data-status")).toBe("waiting");
    await expect.poll(() => entry.locator(".session-title").innerText()).toBe(DEMO_PROMPT);
    expect(await entry.getByTestId("session-status").innerText()).toBe("waiting for you");
    await shot(page, "approval");
    expect(await answerNext(page)).toBe("bash");

    // The edit waits with its diff in colour; the reasoning of the steps before is folded.
    const edit = page.locator('[data-testid="tool-card"][data-tool="edit"][data-state="approval-requested"]');
    await edit.waitFor({ timeout: 20_000 });
    await expect.poll(() => edit.locator(".diff-add").first().innerText()).toContain("return a + b;");
    expect(await edit.locator(".diff-del").first().innerText()).toContain("return a - b;");
    expect(await page.locator('[data-testid="reasoning"][data-open="true"]').count()).toBe(0);
    await edit.scrollIntoViewIfNeeded();
    await shot(page, "edit-approval");
    expect(await answerNext(page)).toBe("edit");
    expect(await answerNext(page)).toBe("bash");
    await page.getByText("All three tests pass now").waitFor({ timeout: 20_000 });
    await page.getByTestId("send").waitFor();
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a + b;");
    const done = page.locator('[data-testid="tool-card"][data-tool="edit"][data-state="output-available"]');
    expect(await done.locator(".diff-add").first().evaluate(backgroundOf)).toBe("rgb(218, 251, 225)");

    // Never two cards for one call, and none left "preparing": each call showed as one card throughout.
    expect(await w.ghosts()).toEqual([]);
    const states = await w.states();
    expect(Object.keys(states)).toHaveLength(4); // bash, read, edit, bash
    expect(await page.locator('[data-testid="tool-card"]').count()).toBe(4);
    expect(await page.locator('[data-testid="tool-card"]:not([data-state="output-available"])').count()).toBe(0);

    // Markdown: the answer's list, bold text and a highlighted code block, not the raw marks.
    const answer = page.getByTestId("markdown").last();
    expect(await answer.locator("li").count()).toBe(2);
    expect(await answer.locator("strong").innerText()).toBe("3 of 3 pass");
    expect(await answer.locator("pre code.hljs.language-js .hljs-keyword").allInnerTexts()).toEqual(expect.arrayContaining(["export", "function", "return"]));
    expect(await answer.innerText()).not.toContain("```");
    // Each step's reasoning folded to one line once the step was over.
    expect(await page.getByTestId("reasoning").count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('[data-testid="reasoning"][data-open="true"]').count()).toBe(0);
    await shot(page, "chat");
    await page.getByTestId("reasoning").first().getByRole("button").click();
    expect(await page.getByTestId("reasoning").first().getAttribute("data-open")).toBe("true");

    // Shift+Enter is a new line, not a send.
    const prompt = page.getByTestId("prompt");
    await prompt.fill("first line");
    await prompt.press("Shift+Enter");
    await prompt.pressSequentially("second line");
    expect(await prompt.inputValue()).toBe("first line\nsecond line");
    expect(await page.getByTestId("message-user").count()).toBe(1);

    // Esc stops: an off-script prompt streams a long answer, Esc ends the run mid-sentence.
    await prompt.fill("Tell me about yourself");
    await prompt.press("Enter");
    await page.getByText("This is Lathe's offline demo model").waitFor({ timeout: 20_000 });
    await page.keyboard.press("Escape");
    await page.getByTestId("send").waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await lastStored()).info).toMatchObject({ role: "assistant", finish: "aborted" });
    const said = (await lastStored()).parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    expect(said.length).toBeLessThan(400);
    await page.getByText("Stopped.").waitFor();

    // Revert asks first: cancelling changes nothing; confirming undoes the fix and hides the later messages.
    const firstUser = page.getByTestId("message-user").first();
    await firstUser.hover();
    await firstUser.getByTestId("revert").click();
    await page.getByTestId("confirm").waitFor();
    await shot(page, "revert-confirm");
    await page.getByTestId("confirm-cancel").click();
    await page.getByTestId("confirm").waitFor({ state: "detached" });
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a + b;");
    await firstUser.hover();
    await firstUser.getByTestId("revert").click();
    await page.getByTestId("confirm-ok").click();
    await page.getByTestId("reverted").waitFor({ timeout: 20_000 });
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a - b;");
    expect(await page.getByTestId("message-assistant").count()).toBe(0);
    await shot(page, "reverted");
    await page.getByRole("button", { name: "Undo revert" }).click();
    await page.getByTestId("reverted").waitFor({ state: "detached", timeout: 20_000 });
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a + b;");

    // Reverted again, a new message makes the revert final: the conversation goes on from there.
    await firstUser.hover();
    await firstUser.getByTestId("revert").click();
    await page.getByTestId("confirm-ok").click();
    await page.getByTestId("reverted").waitFor({ timeout: 20_000 });
    await prompt.fill("Tell me about yourself");
    await prompt.press("Enter");
    await page.getByText("This is Lathe's offline demo model").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("reverted").count()).toBe(0);
    expect(await page.getByTestId("message-user").locator(".user-text").allInnerTexts()).toEqual(["Tell me about yourself"]);
    await page.getByTestId("send").waitFor({ timeout: 20_000 });
    await page.getByText("Press Ctrl+C while I am talking to interrupt me.").waitFor();
    // The stored history agrees (the page reloads it after the answer).
    expect(await page.getByTestId("message-user").locator(".user-text").allInnerTexts()).toEqual(["Tell me about yourself"]);
    expect((await agent.sessions.messages((await agent.sessions.list()).sessions[0]!.id)).map((m) => m.info.role)).toEqual(["user", "assistant"]);
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a - b;");
    expect(w.errors).toEqual([]);
  }, 120_000);

  it("answers: allow always covers the next such request, a reject is no error, feedback reaches the model", async () => {
    breakDemoBug(workspace);
    // A new session is not a blank pane; it is listed first, unnamed until its first prompt.
    await page.getByTestId("new-session").click();
    await page.getByTestId("empty-state").waitFor();
    const items = page.locator('[data-testid="sessions"] li');
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.first().getAttribute("class")).toBe("active");
    expect(await items.first().locator(".session-title.untitled").innerText()).toBe("New session");

    // An example from the empty state goes into the box.
    await page.getByTestId("empty-state").getByRole("button", { name: DEMO_PROMPT }).click();
    expect(await page.getByTestId("prompt").inputValue()).toBe(DEMO_PROMPT);
    await page.getByTestId("send").click();
    expect(await answerNext(page, "approve-always")).toBe("bash");

    // Reject with feedback: the call does not run, the card says so quietly, the model reads the feedback.
    const edit = page.locator('[data-testid="tool-card"][data-tool="edit"]');
    await edit.getByTestId("reject-feedback").click({ timeout: 20_000 });
    await edit.getByTestId("feedback").fill("Keep subtraction; rename the function instead.");
    await shot(page, "feedback");
    await edit.getByTestId("feedback").press("Enter");
    await page.getByText("Understood — I stopped there.").waitFor({ timeout: 20_000 });
    expect(await edit.getByTestId("rejected").innerText()).toContain("Keep subtraction; rename the function instead.");
    expect(await edit.getAttribute("data-state")).toBe("output-denied");
    expect(await edit.locator(".badge").innerText()).toBe("rejected");
    expect(await page.locator(".tool-error, .badge-bad, [role=alert]").count()).toBe(0);
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a - b;"); // the edit did not run

    // The same command again runs without asking: "always" covered it.
    await page.getByTestId("send").waitFor();
    const before = Object.keys(await w.states());
    await page.getByTestId("prompt").fill("Run the tests again and fix the bug.");
    await page.getByTestId("prompt").press("Enter");
    const rerun = page.locator('[data-testid="tool-card"][data-tool="bash"]').nth(1);
    await rerun.waitFor({ timeout: 20_000 });
    const rerunID = (await rerun.getAttribute("data-call-id"))!;
    expect(before).not.toContain(rerunID);
    // A plain reject of the next edit (the read before it needs no answer).
    await page.locator('[data-testid="tool-card"][data-tool="edit"]').nth(1).getByTestId("reject").click({ timeout: 20_000 });
    // A plain reject ends the turn on purpose: said quietly, not as a failure.
    await page.getByText("Stopped: a call was rejected.").waitFor({ timeout: 20_000 });
    await page.getByTestId("send").waitFor();
    expect((await w.states())[rerunID]).not.toContain("approval-requested");
    expect(await page.getByTestId("rejected").nth(1).innerText()).toBe("Rejected: the call did not run.");
    expect(await page.locator(".tool-error, .badge-bad, [role=alert]").count()).toBe(0);
    expect(await w.ghosts()).toEqual([]);

    // A reload opens the session that was open, never an empty "create a session" pane.
    await page.reload();
    await page.getByTestId("message-user").first().waitFor();
    await page.getByText("Stopped: a call was rejected.").waitFor();
    expect(await page.getByText("Understood — I stopped there.").count()).toBe(1);
    expect(await page.getByTestId("empty-state").count()).toBe(0);
    expect(w.errors).toEqual([]);
  }, 90_000);

  it("at 390 px (and 360): the sessions in a drawer, no sideways scrolling, Send in reach, whole approval buttons", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const watched = await watchedPage(phone);
    const p = watched.page;
    try {
      await p.goto(pageURL());
      await p.getByTestId("message-user").first().waitFor(); // the newest session opens
      expect(await overflowsSideways(p)).toBe(false);
      const sidebar = p.getByTestId("sidebar");
      expect((await sidebar.boundingBox())!.x + (await sidebar.boundingBox())!.width).toBeLessThanOrEqual(0); // hidden off screen
      await p.getByTestId("menu").tap();
      await expect.poll(async () => (await sidebar.boundingBox())!.x).toBe(0);
      await shot(p, "phone-sessions");
      // Esc closes the drawer; ☰ opens it again.
      await p.keyboard.press("Escape");
      await expect.poll(async () => (await sidebar.boundingBox())!.x + (await sidebar.boundingBox())!.width).toBeLessThanOrEqual(0);
      await p.getByTestId("menu").tap();
      await expect.poll(async () => (await sidebar.boundingBox())!.x).toBe(0);
      await p.getByTestId("new-session").tap();
      await p.getByTestId("empty-state").waitFor();
      await expect.poll(async () => (await sidebar.boundingBox())!.x + (await sidebar.boundingBox())!.width).toBeLessThanOrEqual(0);

      await p.getByTestId("prompt").fill(DEMO_PROMPT);
      const send = (await p.getByTestId("send").boundingBox())!;
      expect(send.x).toBeGreaterThanOrEqual(0);
      expect(send.x + send.width).toBeLessThanOrEqual(390);
      expect(send.y + send.height).toBeLessThanOrEqual(844);
      expect(send.height).toBeGreaterThanOrEqual(40);
      await p.getByTestId("send").tap();
      const card = waitingCards(p).first();
      await card.waitFor({ timeout: 20_000 });
      expect(await overflowsSideways(p)).toBe(false);
      // The question on its own line and each answer a whole button on one line.
      for (const id of ["approve", "approve-always", "reject", "reject-feedback"]) {
        const box = (await card.getByTestId(id).boundingBox())!;
        expect(box.height).toBeLessThan(40);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
      await shot(p, "phone");
      await card.getByTestId("reject").tap();
      await p.getByText("Stopped: a call was rejected.").waitFor({ timeout: 20_000 });
      expect(await overflowsSideways(p)).toBe(false);
      // Down to 360 px: still nothing wider than the window, Send still whole on screen.
      await p.setViewportSize({ width: 360, height: 740 });
      expect(await overflowsSideways(p)).toBe(false);
      const narrow = (await p.getByTestId("send").boundingBox())!;
      expect(narrow.x + narrow.width).toBeLessThanOrEqual(360);
      expect(watched.errors).toEqual([]);
      expect(await watched.ghosts()).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 60_000);

  it("without the token, or with a stale one: the page says which address to open", async () => {
    const stranger = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    try {
      const watched = await watchedPage(stranger);
      await watched.page.goto(server.url); // no #token=…
      await watched.page.getByTestId("server-down").waitFor({ timeout: 10_000 });
      expect(await watched.page.getByTestId("server-down").innerText()).toContain("Open the address the server printed");
      await watched.page.goto(`${server.url}/#token=not-the-token`);
      await watched.page.reload();
      await watched.page.getByTestId("server-down").waitFor({ timeout: 10_000 });
      expect(await watched.page.getByTestId("server-down").innerText()).toContain("#token=");
      expect(await watched.page.getByTestId("sessions").locator("li").count()).toBe(0); // nothing shown without the key
      expect(watched.errors).toEqual([]);
      expect(await watched.rejections()).toEqual([]);
    } finally {
      await stranger.close();
    }
  });

  it("with the server down: a message and a retry, no unhandled rejection; it recovers when the server is back", async () => {
    await page.getByTestId("send").waitFor();
    const port = server.port;
    await server.close();
    await page.getByTestId("server-down").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("server-down").innerText()).toContain("Can't reach the Lathe server");
    // Sending now: the message says what is wrong, in words, and the prompt is not lost.
    await page.getByTestId("prompt").fill("Fix the bug again, please.");
    await page.getByTestId("prompt").press("Enter");
    await page.getByTestId("reconnecting").waitFor({ timeout: 10_000 });
    expect(await page.locator("body").innerText()).not.toContain("Failed to fetch");
    await shot(page, "server-down");

    server = await serve(port);
    await page.getByTestId("server-down").waitFor({ state: "detached", timeout: 10_000 });
    await page.getByTestId("reconnecting").waitFor({ state: "detached", timeout: 10_000 });
    expect(await page.getByTestId("prompt").inputValue()).toBe("Fix the bug again, please.");
    expect(w.errors).toEqual([]);
    expect(await w.rejections()).toEqual([]);
  }, 60_000);
});
