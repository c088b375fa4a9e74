import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatchTool } from "./apply-patch/apply-patch.js";
import { editTool } from "./edit/edit.js";
import { multieditTool } from "./multiedit/multiedit.js";
import { WITHHELD_EXCERPT } from "./near-miss-gate.js";
import { readTool } from "./read/read.js";
import { tempWorkspace, testContext } from "./test-context.js";
import type { ToolContext } from "./tool.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
  await writeFile(path.join(ws.dir, "prod.env"), "API_KEY=sk-live-123456\nDB_PASSWORD=hunter2\nREGION=eu\n");
});
afterEach(async () => ws.cleanup());

/** `read` of `*.env` decided as `action`; everything else allowed. */
const readOfEnv = (action: "allow" | "ask" | "deny"): ToolContext["check"] => (request) =>
  request.permission === "read" && request.patterns.some((p) => p.endsWith(".env")) ? action : "allow";

/** A context that has read the file (so the edit tools accept it), with `check` as given. */
async function contextWith(check: ToolContext["check"] | undefined) {
  const ctx = testContext(ws.dir, check ? { check } : {});
  await readTool.execute({ path: "prod.env" }, ctx);
  return ctx;
}

const nearly = { oldString: "API_KEY=sk-live-123457\nDB_PASSWORD=hunter3", newString: "API_KEY=x" };
const patch = "*** Begin Patch\n*** Update File: prod.env\n@@\n-API_KEY=sk-live-123457\n-DB_PASSWORD=hunter3\n+API_KEY=x\n*** End Patch";

async function refusal(run: () => Promise<unknown>): Promise<Error & { nearMiss?: unknown }> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  return error as Error & { nearMiss?: unknown };
}

describe("edit refusals never quote a file whose read is denied or would ask", () => {
  for (const action of ["deny", "ask"] as const) {
    it(`edit, multiedit and apply_patch leave the closest region out when read is ${action}`, async () => {
      const ctx = await contextWith(readOfEnv(action));
      for (const error of [
        await refusal(() => editTool.execute({ path: "prod.env", ...nearly }, ctx)),
        await refusal(() => multieditTool.execute({ path: "prod.env", edits: [nearly] }, ctx)),
        await refusal(() => applyPatchTool.execute({ patchText: patch }, ctx)),
      ]) {
        expect(error.message).not.toContain("sk-live-123456");
        expect(error.message).not.toContain("hunter2");
        expect(error.message).toContain(WITHHELD_EXCERPT);
        expect(error.nearMiss).toBeUndefined();
      }
    });
  }

  it("quotes the closest region when read is allowed", async () => {
    const ctx = await contextWith(readOfEnv("allow"));
    const error = await refusal(() => editTool.execute({ path: "prod.env", ...nearly }, ctx));
    expect(error.message).toContain("sk-live-123456");
    const patched = await refusal(() => applyPatchTool.execute({ patchText: patch }, ctx));
    expect(patched.message).toContain("hunter2");
  });

  it("leaves it out when read cannot be checked (a context without check)", async () => {
    const ctx = await contextWith(undefined);
    const error = await refusal(() => editTool.execute({ path: "prod.env", ...nearly }, ctx));
    expect(error.message).not.toContain("sk-live-123456");
  });
});
