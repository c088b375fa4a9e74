import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, type Agent } from "@lathe/core";
import { mockModel, type MockModel } from "@lathe/mock";
import { SqliteStorage } from "@lathe/storage";
import { startServer, type RunningServer } from "../examples/server/src/server.ts";
import { examplePermissions } from "../examples/shared/permission-rules.ts";
import { gate, lastUserText, type Gate } from "./gated-turns.ts";
import { ensureWebBuilt, launchBrowser, overflowsSideways, shot, watchedPage, webDist, type WatchedPage } from "./web-browser.ts";

// examples/web lets the user type while the agent works, in a real Chromium against examples/server
// and a scripted model whose requests the test holds at known steps: Enter steers (the message shows
// waiting, then where it entered the turn, and the model's next request carries it), the switch or
// Alt+Enter queues a turn after this one, and a reload while a message waits neither loses nor
// doubles it. LATHE_SCREENSHOTS=1 saves the screenshots shown in examples/web/README.md.

const TOKEN = "web-steer-token-0123456789abcdef0123456789";
const read = { toolCalls: [{ name: "read", input: { path: "notes.txt" } }] };
// One scripted model for the file's turns, in order; the gates hold the requests the tests act during.
const steerGate = gate(read);
const answerGate = gate({ text: "Kept the old format." });
const queueGate = gate(read);
const reloadGate = gate(read);
const stopGate = gate(read);
const script = [
  // 1: a turn of three steps; a message is steered in while step 2 is in flight.
  read,
  steerGate.turn,
  answerGate.turn,
  // 2: a turn of two steps, and a message queued for a turn of its own.
  queueGate.turn,
  { text: "Read the notes." },
  { text: "Docs updated." },
  // 3: a steered and a queued message wait while the page reloads.
  reloadGate.turn,
  { text: "Noted: the steer after the reload." },
  { text: "The queued one, answered." },
  // 4: Stop while a steered message waits: the turn stops, and the message gets a turn of its own.
  stopGate.turn,
  { text: "Answered it after the stop." },
];

let server: RunningServer;
let agent: Agent;
let storage: SqliteStorage;
let model: MockModel;
let browser: Browser;
let w: WatchedPage;
let page: Page;

beforeAll(async () => {
  ensureWebBuilt();
  const cwd = mkdtempSync(join(tmpdir(), "lathe-web-steer-"));
  writeFileSync(join(cwd, "notes.txt"), "token format: v1\n");
  storage = new SqliteStorage(join(cwd, "sessions.db"));
  model = mockModel(script, { chunkSize: 6, delayMs: 5 });
  agent = createAgent({ model, cwd, storage, snapshots: false, ...examplePermissions() });
  server = await startServer({ agent, port: 0, hostname: "127.0.0.1", staticRoot: webDist, token: TOKEN });
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1100, height: 820 } });
  w = await watchedPage(context);
  page = w.page;
  page.setDefaultTimeout(8_000);
  await page.goto(server.pageUrl);
  await page.getByTestId("empty-state").waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await agent?.close();
  await storage?.close();
});

/** The conversation as shown, top to bottom: each block's kind and the start of its text. */
const conversation = (p: Page) =>
  p.evaluate(`Array.from(document.querySelectorAll('[data-testid="messages"] > .message')).map((el) => {
    const id = el.getAttribute("data-testid");
    const kind = id === "message-user" && el.getAttribute("data-steered") ? "steered" : id === "waiting-message" ? "waiting-" + el.getAttribute("data-while-busy") : id.replace("message-", "");
    const text = (el.querySelector(".user-text") || el).textContent.trim();
    return kind + ": " + text.slice(0, 40);
  })`) as Promise<string[]>;
/** How many blocks of the conversation show this text as the user's. */
const userBlocks = (p: Page, text: string) => p.locator(".message .user-text", { hasText: text }).count();
const idle = (p: Page) => p.getByTestId("send").waitFor({ timeout: 10_000 });
const waiting = (p: Page, whileBusy: "steer" | "queue", text: string) => p.locator(`[data-testid="waiting-message"][data-while-busy="${whileBusy}"]`, { hasText: text });
/**
 * Lets the held request go on and waits until the page is idle with `lastText` shown: then the model's
 * requests carried the given texts last from the user, and the conversation reads `shown`.
 */
async function openAndFinish(held: Gate, lastText: string, requests: Record<number, string>, shown: unknown[]): Promise<void> {
  held.open();
  await page.getByText(lastText).waitFor({ timeout: 10_000 });
  await idle(page);
  for (const [index, text] of Object.entries(requests)) expect(lastUserText(model.calls[Number(index)]!), `request ${index}`).toBe(text);
  await expect.poll(() => conversation(page)).toEqual(shown);
}
/** In a new session, a prompt whose request `held` holds, and a message steered in and stored meanwhile. */
async function steerInNewSession(prompt: string, held: Gate, steer: string): Promise<void> {
  await page.getByTestId("new-session").click();
  await page.getByTestId("empty-state").waitFor();
  await page.getByTestId("prompt").fill(prompt);
  await page.getByTestId("prompt").press("Enter");
  await held.reached;
  await page.getByTestId("prompt").fill(steer);
  await page.getByTestId("prompt").press("Enter");
  await waiting(page, "steer", steer).and(page.locator('[data-stored="true"]')).waitFor();
}
const activeSessionID = async (p: Page) => (await p.locator('[data-testid="sessions"] li.active').getAttribute("data-session-id"))!;

describe("examples/web: typing while the agent works", () => {
  it("Enter steers: the message waits, then shows where it entered the turn, and the next request carries it", async () => {
    await page.getByTestId("prompt").fill("Refactor the notes");
    await page.getByTestId("prompt").press("Enter");
    await steerGate.reached; // step 2 of 3 is in flight
    await page.getByTestId("stop").waitFor();
    // The box stays open while the agent works.
    expect(await page.getByTestId("prompt").isEditable()).toBe(true);
    expect(await page.getByTestId("while-busy-mode").getAttribute("data-mode")).toBe("steer");
    await page.getByTestId("prompt").fill("No, keep the old token format");
    await page.getByTestId("prompt").press("Enter");
    const note = waiting(page, "steer", "No, keep the old token format");
    await note.and(page.locator('[data-stored="true"]')).waitFor();
    expect(await note.getByTestId("waiting-note").innerText()).toBe("Queued — the agent reads it at its next step");
    expect(await page.getByTestId("prompt").inputValue()).toBe("");
    // Stored already, though no request has carried it yet.
    const sessionID = await activeSessionID(page);
    expect((await agent.sessions.messages(sessionID)).some((m) => m.info.role === "user" && m.parts.some((p) => p.type === "text" && p.text === "No, keep the old token format"))).toBe(true);
    expect(model.calls).toHaveLength(2);
    await shot(page, "steer-waiting");

    steerGate.open();
    // The turn took it into its next request (held now): the live stream shows it where it entered,
    // after both reads, and it no longer waits.
    await answerGate.reached;
    expect(lastUserText(model.calls[2]!)).toBe("No, keep the old token format");
    await page.locator('[data-testid="message-user"][data-steered="true"]', { hasText: "No, keep the old token format" }).waitFor();
    expect(await page.getByTestId("waiting-message").count()).toBe(0);
    expect(await conversation(page)).toEqual(["user: Refactor the notes", expect.stringMatching(/^assistant: /), "steered: No, keep the old token format"]);
    expect(await page.locator('[data-testid="message-assistant"]').first().getByTestId("tool-card").count()).toBe(2);
    await shot(page, "steer-entered");
    answerGate.open();
    await page.getByText("Kept the old format.").waitFor({ timeout: 10_000 });

    // Finished: the stored history, shown the same way.
    await idle(page);
    await expect.poll(() => conversation(page)).toEqual(["user: Refactor the notes", expect.stringMatching(/^assistant: /), "user: No, keep the old token format", "assistant: Kept the old format."]);
    expect(await userBlocks(page, "No, keep the old token format")).toBe(1);
  });

  it("the switch queues: the message waits for the next turn, which answers it after this one", async () => {
    await page.getByTestId("prompt").fill("Read the notes again");
    await page.getByTestId("prompt").press("Enter");
    await queueGate.reached;
    await page.getByTestId("while-busy-mode").click();
    expect(await page.getByTestId("while-busy-mode").getAttribute("data-mode")).toBe("queue");
    await page.getByTestId("prompt").fill("Then update the docs");
    await page.getByTestId("send-while-busy").click();
    const note = waiting(page, "queue", "Then update the docs");
    await note.and(page.locator('[data-stored="true"]')).waitFor();
    expect(await note.getByTestId("waiting-note").innerText()).toBe("Queued for the next turn — sent when this one ends");
    expect((await agent.sessions.get(await activeSessionID(page)))?.queue?.map((q) => q.input)).toEqual([[{ type: "text", text: "Then update the docs" }]]);
    await shot(page, "queue-waiting");

    // The running turn ends without it; then its own turn answers it, and the page follows that turn.
    await openAndFinish(queueGate, "Docs updated.", { 4: "Read the notes again", 5: "Then update the docs" }, [
      "user: Refactor the notes",
      expect.stringMatching(/^assistant: /),
      "user: No, keep the old token format",
      "assistant: Kept the old format.",
      "user: Read the notes again",
      expect.stringMatching(/^assistant: /),
      "user: Then update the docs",
      "assistant: Docs updated.",
    ]);
    expect(await page.getByTestId("waiting-message").count()).toBe(0);
  });

  it("a reload while a steered and a queued message wait loses neither and shows each once", { timeout: 60_000 }, async () => {
    await steerInNewSession("Check the notes", reloadGate, "Steer after reload");
    // Alt+Enter queues, whatever the switch says.
    expect(await page.getByTestId("while-busy-mode").getAttribute("data-mode")).toBe("steer");
    await page.getByTestId("prompt").fill("Queued before reload");
    await page.getByTestId("prompt").press("Alt+Enter");
    await waiting(page, "queue", "Queued before reload").and(page.locator('[data-stored="true"]')).waitFor();

    await page.reload();
    // Both are still there, once each, still waiting: the server stored them.
    await waiting(page, "steer", "Steer after reload").waitFor({ timeout: 10_000 });
    await waiting(page, "queue", "Queued before reload").waitFor();
    expect(await userBlocks(page, "Steer after reload")).toBe(1);
    expect(await userBlocks(page, "Queued before reload")).toBe(1);

    await openAndFinish(reloadGate, "The queued one, answered.", { 7: "Steer after reload", 8: "Queued before reload" }, [
      "user: Check the notes",
      expect.stringMatching(/^assistant: /),
      "user: Steer after reload",
      "assistant: Noted: the steer after the reload.",
      "user: Queued before reload",
      "assistant: The queued one, answered.",
    ]);
    expect(w.errors).toEqual([]);
  });

  it("Stop stops the turn; a steered message it had not read yet gets a turn of its own, which the page follows", async () => {
    await steerInNewSession("A long task", stopGate, "Do this instead");
    // On a phone the busy composer (box, switch, send, stop) still fits: nothing scrolls sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    const sidebar = page.getByTestId("sidebar");
    await expect.poll(async () => (await sidebar.boundingBox())!.x + (await sidebar.boundingBox())!.width).toBeLessThanOrEqual(0); // the list slid away
    expect(await overflowsSideways(page)).toBe(false);
    expect((await page.getByTestId("stop").boundingBox())!.x + 40).toBeLessThanOrEqual(360);
    await shot(page, "phone-steer-waiting");
    await page.setViewportSize({ width: 1100, height: 820 });
    await page.getByTestId("stop").click();
    await page.getByText("Answered it after the stop.").waitFor({ timeout: 10_000 });
    await idle(page);
    expect(lastUserText(model.calls.at(-1)!)).toBe("Do this instead");
    await expect.poll(() => conversation(page)).toEqual(["user: A long task", "assistant: Stopped.", "user: Do this instead", "assistant: Answered it after the stop."]);
    expect(model.remaining).toBe(0);
    expect(w.errors).toEqual([]);
    expect(await w.rejections()).toEqual([]);
  });
});
