import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { createAgent, type Agent } from "@lathe/core";
import { bashTool, defineTool, type Tool } from "@lathe/tools";
import type { WorkerContext } from "../worker.js";
import { scriptedModel } from "./scripted-model.js";

/** A tool that asks before it deploys: the turn waits for approval. */
export const deployTool: Tool = defineTool({
  name: "deploy",
  description: "Deploys to a target.",
  parameters: z.object({ target: z.string() }),
  async execute({ target }, ctx) {
    await ctx.ask({ permission: "deploy", patterns: [target], always: [target], metadata: { target } });
    return { title: `deployed ${target}`, output: `deployed ${target}` };
  },
});

/** The agent of the queue's tests: the scripted model, bash and deploy, a short lease so a dead worker's session frees soon. */
export function workerAgent(context: WorkerContext, options: { latencyMs?: number } = {}): Agent {
  return createAgent({
    model: scriptedModel(options),
    storage: context.storage,
    handOffReply: context.handOffReply,
    cwd: mkdtempSync(join(tmpdir(), "lathe-queue-worker-")),
    tools: [bashTool, deployTool],
    permission: { bash: "allow", deploy: "ask" },
    snapshots: false,
    leaseTtlMs: 3_000,
    flushIntervalMs: 20,
  });
}
