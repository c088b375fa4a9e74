// The path rules enforced in the kernel: with `read: { "*.env": "deny" }` and
// `edit: { "secrets/*": "deny" }`, commands the bash rules allow still cannot read `.env` or write
// into `secrets/` inside the bwrap sandbox; the network follows the `webfetch` rules.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { evaluate, fromConfig } from "@lathe/permission";
import { findOnPath } from "../find-executable.js";
import { tempWorkspace, testContext } from "../test-context.js";
import type { ToolContext } from "../tool.js";
import { createBashTool } from "./bash.js";
import { enforcementMounts } from "./path-enforcement.js";
import { probeBwrap } from "./sandbox.js";

const RULES = fromConfig({ bash: "allow", read: { "*": "allow", "*.env": "deny" }, edit: { "*": "allow", "secrets/*": "deny" }, webfetch: "deny" });

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
  await writeFile(path.join(ws.dir, ".env"), "SECRET=topsecret\n");
  await mkdir(path.join(ws.dir, "config"));
  await writeFile(path.join(ws.dir, "config/prod.env"), "SECRET=alsosecret\n");
  await mkdir(path.join(ws.dir, "secrets"));
  await writeFile(path.join(ws.dir, "secrets/existing"), "original\n");
});
afterEach(async () => ws.cleanup());

/** A context deciding by RULES, as the agent loop's does (`check`, `deniedPatterns`). */
function ruledContext(): ToolContext & ReturnType<typeof testContext> {
  const check: ToolContext["check"] = ({ permission, patterns }) => {
    const actions = patterns.map((p) => evaluate(permission, p, RULES).action);
    return actions.includes("deny") ? "deny" : actions.includes("ask") ? "ask" : "allow";
  };
  const ctx = testContext(ws.dir, { check });
  return Object.assign(ctx, {
    deniedPatterns: (permission: string) => RULES.filter((r) => r.action === "deny" && r.permission === permission).map((r) => r.pattern),
  });
}

const ATTACKS = "cat .env; cat config/prod.env; cp .env x && cat x; echo x > secrets/k; echo y >> secrets/existing; rm -f secrets/existing";

describe("path rules in the kernel (bwrap)", () => {
  it("bubblewrap runs here (this test does not skip)", () => {
    expect(process.platform).toBe("linux");
    expect(probeBwrap({ type: "bwrap" })).toBe(findOnPath("bwrap"));
  });

  it("without the sandbox the commands read and write (the test can fail)", async () => {
    const result = await createBashTool().execute({ command: ATTACKS }, ruledContext());
    expect(result.output).toContain("topsecret");
    expect(existsSync(path.join(ws.dir, "secrets/k"))).toBe(true);
  });

  it("inside it, cat .env, cp .env x and echo x > secrets/k fail though the bash rules allow them", async () => {
    const ctx = ruledContext();
    const result = await createBashTool({ sandbox: { type: "bwrap" } }).execute({ command: ATTACKS }, ctx);
    expect(result.metadata?.sandbox).toBe("bwrap");
    // The test context allows every ask, as a host would after approving: only the kernel stands in the way.
    expect(result.output).not.toContain("topsecret");
    expect(result.output).not.toContain("alsosecret");
    expect(existsSync(path.join(ws.dir, "secrets/k"))).toBe(false);
    expect(await readFile(path.join(ws.dir, "secrets/existing"), "utf8")).toBe("original\n");
    expect(await readFile(path.join(ws.dir, "x"), "utf8").catch(() => "")).not.toContain("topsecret");
    // The host's files are untouched by the masks.
    expect(await readFile(path.join(ws.dir, ".env"), "utf8")).toBe("SECRET=topsecret\n");
  });

  it("the network follows webfetch: denied there, off in the sandbox even with network: true", async () => {
    const ctx = ruledContext();
    const result = await createBashTool({ sandbox: { type: "bwrap", network: true } }).execute({ command: "tail -n +3 /proc/net/dev | cut -d: -f1" }, ctx);
    expect(result.output.split("\n").map((l) => l.trim()).filter(Boolean)).toEqual(["lo"]);
  });

  it("mounts: a folder pattern covers the folder, a file pattern each file the rules deny", () => {
    const mounts = enforcementMounts(ruledContext(), ws.dir);
    expect(mounts.join(" ")).toContain(`--ro-bind ${ws.dir}/secrets ${ws.dir}/secrets`);
    expect(mounts.join(" ")).toContain(`--ro-bind /dev/null ${ws.dir}/.env`);
    expect(mounts.join(" ")).toContain(`--ro-bind /dev/null ${ws.dir}/config/prod.env`);
  });
});
