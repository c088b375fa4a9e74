import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, type Agent } from "@lathe/core";
import { SqliteStorage } from "@lathe/storage";
import { createDemoWorkspace, DEMO_PROMPT } from "../examples/cli/src/demo.ts";
import { startServer, type RunningServer } from "../examples/server/src/server.ts";
import { webDemoModel } from "../examples/web/src/web-demo.ts";

// examples/web end to end in a real headless Chromium (Debian's `chromium`, installed by
// scripts/setup.mjs) driven by playwright-core: the built app served by examples/server with the
// offline demo model. One browser, one page, one story: prompt, stream, approve, diff, stop, revert.
// LATHE_SCREENSHOTS=1 saves the screenshots shown in docs/web.md.

const root = fileURLToPath(new URL("..", import.meta.url));
const web = join(root, "examples", "web");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const shots = process.env.LATHE_SCREENSHOTS ? join(root, "docs", "images") : join(tmpdir(), "lathe-web-shots");

let server: RunningServer;
let agent: Agent;
let storage: SqliteStorage;
let browser: Browser;
let page: Page;
let workspace: string;

beforeAll(async () => {
  // npm test builds the app in its build step; a targeted run builds it here if it is missing.
  if (!existsSync(join(web, "dist", "index.html"))) {
    const built = spawnSync("npx", ["vite", "build"], { cwd: web, stdio: "inherit" });
    expect(built.status).toBe(0);
  }
  mkdirSync(shots, { recursive: true });
  workspace = createDemoWorkspace();
  storage = new SqliteStorage(join(mkdtempSync(join(tmpdir(), "lathe-web-db-")), "sessions.db"));
  agent = createAgent({
    model: webDemoModel({ delayMs: 8 }),
    cwd: workspace,
    storage,
    agents: { build: { permission: { edit: "ask", bash: "ask" } } },
  });
  server = await startServer({ agent, port: 0, hostname: "127.0.0.1", staticRoot: join(web, "dist") });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  page = await browser.newPage({ viewport: { width: 1200, height: 860 } });
  page.on("console", (message) => { if (message.type() === "error") console.error("browser:", message.text()); });
  page.on("pageerror", (error) => console.error("browser:", error.message));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await agent?.close();
  await storage?.close();
});

// Runs in the page (this file is type-checked without the DOM's types).
const backgroundOf = new Function("el", "return getComputedStyle(el).backgroundColor") as (el: unknown) => string;

const shot = (name: string) => page.screenshot({ path: join(shots, `web-${name}.png`) });

/** Approves the next call that waits, and returns its tool card's tool name. */
async function approveNext(): Promise<string> {
  const card = page.locator('[data-testid="tool-card"][data-state="approval-requested"]').first();
  await card.waitFor({ timeout: 20_000 });
  const tool = (await card.getAttribute("data-tool"))!;
  await card.getByTestId("approve").click();
  await page.locator('[data-testid="tool-card"][data-state="approval-requested"]').waitFor({ state: "detached", timeout: 20_000 });
  return tool;
}

describe("examples/web in Chromium", () => {
  it("prompts, streams text and reasoning, approves calls, shows the diff, stops a run and reverts", async () => {
    await page.goto(server.url);
    await page.getByTestId("new-session").click();
    await page.getByTestId("prompt").fill(DEMO_PROMPT);
    await page.getByTestId("send").click();

    // The answer streams: reasoning and text appear while the run is still going.
    await page.getByText("I'll run the tests first").waitFor({ timeout: 20_000 });
    await page.getByTestId("reasoning").first().waitFor();
    expect(await page.getByTestId("reasoning").first().innerText()).toContain("Next I should use bash");

    // bash (run the tests) waits for approval; the card shows it with the buttons.
    await page.locator('[data-testid="tool-card"][data-state="approval-requested"]').waitFor({ timeout: 20_000 });
    await shot("approval");
    expect(await approveNext()).toBe("bash");

    // The edit waits with its diff shown in colour; approving it writes the fix.
    const edit = page.locator('[data-testid="tool-card"][data-tool="edit"][data-state="approval-requested"]');
    await edit.waitFor({ timeout: 20_000 });
    await expect.poll(() => edit.locator(".diff-add").first().innerText()).toContain("return a + b;");
    expect(await edit.locator(".diff-del").first().innerText()).toContain("return a - b;");
    await edit.scrollIntoViewIfNeeded();
    await shot("edit-approval");
    expect(await approveNext()).toBe("edit");
    expect(await approveNext()).toBe("bash");
    await page.getByText("All three tests pass now").waitFor({ timeout: 20_000 });
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a + b;");
    const done = page.locator('[data-testid="tool-card"][data-tool="edit"][data-state="output-available"]');
    expect(await done.locator(".diff-add").first().innerText()).toContain("return a + b;");
    expect(await done.locator(".diff-add").first().evaluate(backgroundOf)).toBe("rgb(218, 251, 225)");
    await page.getByTestId("send").waitFor();
    await shot("chat");

    // Stop: an off-script prompt streams a long answer; Stop ends the run mid-sentence.
    await page.getByTestId("prompt").fill("Tell me about yourself");
    await page.getByTestId("send").click();
    await page.getByText("This is Lathe's offline demo model").waitFor({ timeout: 20_000 });
    await page.getByTestId("stop").click();
    await page.getByTestId("send").waitFor({ timeout: 20_000 });
    const [session] = (await agent.sessions.list()).sessions;
    await expect.poll(async () => (await agent.sessions.messages(session!.id)).at(-1)?.info).toMatchObject({ role: "assistant", finish: "aborted" });
    const last = (await agent.sessions.messages(session!.id)).at(-1)!;
    const said = last.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    expect(said.length).toBeLessThan(400); // stopped before the whole answer
    expect(agent.isBusy(session!.id)).toBe(false);

    // Revert to the first message: the fix is undone in the workspace and the later messages hidden.
    await page.getByTestId("revert").first().click();
    await page.getByTestId("reverted").waitFor({ timeout: 20_000 });
    expect(readFileSync(join(workspace, "src", "math.js"), "utf8")).toContain("return a - b;");
    expect(await page.getByTestId("message-assistant").count()).toBe(0);
    await shot("reverted");

    // The session list: a second session appears beside the first, and the first opens again.
    await page.getByTestId("new-session").click();
    await expect.poll(() => page.locator('[data-testid="sessions"] li').count()).toBe(2);
    await expect.poll(() => page.getByTestId("messages").locator(".message").count()).toBe(0); // the new one is open
    await page.locator('[data-testid="sessions"] li:not(.active)').click();
    await page.getByTestId("reverted").waitFor({ timeout: 20_000 });
  }, 180_000);
});
