// What the examples/web browser tests share: one headless Chromium (Debian's `chromium`, driven by
// playwright-core), pages that record what must never happen (an uncaught error, an unhandled
// rejection, two cards for one tool call), and the screenshots shown in docs/web.md.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";

export const root = fileURLToPath(new URL("..", import.meta.url));
export const webRoot = join(root, "examples", "web");
export const webDist = join(webRoot, "dist");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// LATHE_SCREENSHOTS=1 writes the screenshots into docs/images (they are committed); otherwise to a temporary folder.
const shots = process.env.LATHE_SCREENSHOTS ? join(root, "docs", "images") : join(tmpdir(), "lathe-web-shots");

/** Builds the app if this checkout has no build of it yet (npm test builds it in its build step). */
export function ensureWebBuilt(): void {
  if (existsSync(join(webDist, "index.html"))) return;
  const built = spawnSync("npx", ["vite", "build"], { cwd: webRoot, stdio: "inherit" });
  expect(built.status).toBe(0);
}

export function launchBrowser(): Promise<Browser> {
  mkdirSync(shots, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
}

// Runs in each page before the app: every DOM change is checked for two tool cards of one call
// (the "ghost card" of a call split across steps), and unhandled rejections are kept.
const WATCH = `if (!window.__ghosts) {
  window.__ghosts = [];
  window.__states = {};
  window.__rejections = [];
  window.addEventListener("unhandledrejection", (event) => window.__rejections.push(String(event.reason && event.reason.stack || event.reason)));
  const check = () => {
    const seen = new Set();
    for (const card of document.querySelectorAll('[data-testid="tool-card"]')) {
      const id = card.getAttribute("data-call-id");
      if (seen.has(id)) window.__ghosts.push(id + " " + card.getAttribute("data-state"));
      seen.add(id);
      (window.__states[id] ??= []).includes(card.getAttribute("data-state")) || window.__states[id].push(card.getAttribute("data-state"));
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state", "data-call-id"] });
}`;

/** A page that records errors; `problems()` lists them (uncaught errors, rejections, ghost cards). */
export interface WatchedPage {
  page: Page;
  /** Errors thrown in the page and not caught, rejections nobody handled, errors logged to the console. */
  errors: string[];
  /** Every moment two cards showed one tool call. */
  ghosts(): Promise<string[]>;
  /** Unhandled rejections seen by the page itself. */
  rejections(): Promise<string[]>;
  /** Every state each tool call's card has shown, by call id. */
  states(): Promise<Record<string, string[]>>;
}

export async function watchedPage(context: BrowserContext): Promise<WatchedPage> {
  await context.addInitScript({ content: WATCH });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  // Chromium itself logs a request that could not be made (the server is down on purpose in a
  // test) and a 401 (a page without the token, on purpose too); anything else logged as an error
  // — a 404, a 500, a React warning — is one.
  page.on("console", (message) => {
    const text = message.text();
    const expected = /^Failed to load resource: (net::ERR_|the server responded with a status of 401)/.test(text);
    if (message.type() === "error" && !expected) errors.push(`console: ${text}`);
  });
  return {
    page,
    errors,
    ghosts: () => page.evaluate("window.__ghosts") as Promise<string[]>,
    rejections: () => page.evaluate("window.__rejections") as Promise<string[]>,
    states: () => page.evaluate("window.__states") as Promise<Record<string, string[]>>,
  };
}

/** Saves a screenshot of the page as docs/images/web-<name>.png (with LATHE_SCREENSHOTS=1). */
export function shot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: join(shots, `web-${name}.png`) });
}

/** The cards of calls that wait for an answer. */
export const waitingCards = (page: Page) => page.locator('[data-testid="tool-card"][data-state="approval-requested"]');

/** Answers the next call that waits with the given button, and returns its tool's name. */
export async function answerNext(page: Page, button: "approve" | "approve-always" | "reject" = "approve"): Promise<string> {
  const card = waitingCards(page).first();
  await card.waitFor({ timeout: 20_000 });
  const callID = (await card.getAttribute("data-call-id"))!;
  const tool = (await card.getAttribute("data-tool"))!;
  await card.getByTestId(button).click();
  await page.locator(`[data-testid="tool-card"][data-call-id="${callID}"]:not([data-state="approval-requested"])`).waitFor({ timeout: 20_000 });
  return tool;
}

/** Whether the page scrolls sideways (its content is wider than the window). */
export const overflowsSideways = (page: Page) =>
  page.evaluate("document.documentElement.scrollWidth > window.innerWidth || document.body.scrollWidth > window.innerWidth") as Promise<boolean>;

/** Puts the demo project's bug back, so the next demo turn has something to fix (its edit applies). */
export function breakDemoBug(workspace: string): void {
  const file = join(workspace, "src", "math.js");
  writeFileSync(file, readFileSync(file, "utf8").replace("return a + b;", "return a - b;"));
}
