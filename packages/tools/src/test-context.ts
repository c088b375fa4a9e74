// Test helper (not exported): a ToolContext over a temporary workspace that records what tools ask,
// report and emit.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Todo } from "@lathe/message";
import type { ToolContext, ToolEvent, ToolPermissionRequest, ToolProgress } from "./tool.js";

export interface TestContext extends ToolContext {
  asks: ToolPermissionRequest[];
  progress: ToolProgress[];
  events: ToolEvent[];
  controller: AbortController;
  /** The stored todo list behind `todos`. */
  stored: { todos: Todo[] };
}

export interface TestContextOptions {
  /** Decides each ask; default allows everything. Throw to deny. */
  decide?: (request: ToolPermissionRequest) => void | Promise<void>;
  dataDir?: string;
  /** Backs `ctx.check` (absent: no `check`, as for a host without rules). */
  check?: ToolContext["check"];
}

let calls = 0;

/** A context whose `ask` records requests and allows them unless `decide` throws. */
export function testContext(cwd: string, options: TestContextOptions = {}): TestContext {
  const state = new Map<string, unknown>();
  const controller = new AbortController();
  const stored = { todos: [] as Todo[] };
  const ctx: TestContext = {
    sessionID: "ses_test",
    messageID: "msg_test",
    callID: `call_${++calls}`,
    agent: "build",
    cwd,
    abort: controller.signal,
    asks: [],
    progress: [],
    events: [],
    controller,
    stored,
    dataDir: options.dataDir ?? `${cwd}-data`,
    todos: {
      get: async () => stored.todos,
      set: async (todos) => {
        stored.todos = todos;
      },
    },
    ...(options.check ? { check: options.check } : {}),
    async ask(request) {
      ctx.asks.push(request);
      await options.decide?.(request);
    },
    metadata(update) {
      ctx.progress.push(update);
    },
    emit(event) {
      ctx.events.push(event);
    },
    state<T>(key: string, init: () => T): T {
      if (!state.has(key)) state.set(key, init());
      return state.get(key) as T;
    },
  };
  return ctx;
}

/** A fresh temporary workspace (real path) and a function that removes it and its data folder. */
export async function tempWorkspace(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "lathe-tools-")));
  return {
    dir,
    cleanup: async () => {
      await rm(dir, { recursive: true, force: true });
      await rm(`${dir}-data`, { recursive: true, force: true });
    },
  };
}
