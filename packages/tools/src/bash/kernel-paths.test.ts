// Paths judged where they land: `..` after a symlink leaves the link's target, as the kernel walks
// it, for redirection targets and for the workdir.
import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { realpathLoose } from "../path-resolution.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { createBashTool } from "./bash.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
  await mkdir(path.join(ws.dir, "other/inner"), { recursive: true });
  await mkdir(path.join(ws.dir, "secrets"));
  await symlink("other/inner", path.join(ws.dir, "link"));
});
afterEach(async () => ws.cleanup());

describe("paths resolved as the kernel walks them", () => {
  it("realpathLoose applies .. to the link's target", async () => {
    // Lexically ws/link/../../secrets/k is outside the workspace; the kernel lands in ws/secrets/k.
    expect(await realpathLoose(`${ws.dir}/link/../../secrets/k`)).toBe(path.join(ws.dir, "secrets/k"));
    expect(await realpathLoose(`${ws.dir}/link/../x`)).toBe(path.join(ws.dir, "other/x"));
    expect(await realpathLoose(`${ws.dir}/missing/../x`)).toBe(path.join(ws.dir, "x"));
  });

  it("a redirection through link/.. asks edit for where it lands", async () => {
    const ctx = testContext(ws.dir);
    await createBashTool().execute({ command: "echo x > link/../../secrets/k" }, ctx);
    expect(ctx.asks.filter((a) => a.permission === "edit").map((a) => a.patterns)).toEqual([["secrets/k"]]);
    expect(ctx.asks.some((a) => a.permission === "external_directory")).toBe(false);
  });

  it("the workdir resolves the same way", async () => {
    const ctx = testContext(ws.dir);
    const result = await createBashTool().execute({ command: "pwd -P", workdir: "link/.." }, ctx);
    expect(result.output.trim()).toBe(path.join(ws.dir, "other"));
  });
});

describe("the environment cannot make bash run what the analysis does not see", () => {
  it("exported functions, BASH_ENV, SHELLOPTS and CDPATH are left out of the command's environment", async () => {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(path.join(ws.dir, "startup.sh"), "echo STARTUP-RAN\n");
    await mkdir(path.join(ws.dir, "elsewhere/dir"), { recursive: true });
    const ctx = Object.assign(testContext(ws.dir), {
      shellEnv: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        "BASH_FUNC_ls%%": "() { echo FUNCTION-RAN; }",
        BASH_ENV: path.join(ws.dir, "startup.sh"),
        SHELLOPTS: "xtrace",
        CDPATH: path.join(ws.dir, "elsewhere"),
      },
    });
    const result = await createBashTool().execute({ command: "ls > /dev/null; cd dir 2>/dev/null && pwd || echo NO-DIR" }, ctx);
    expect(result.output).not.toContain("FUNCTION-RAN");
    expect(result.output).not.toContain("STARTUP-RAN");
    expect(result.output).not.toContain("+ ls");
    expect(result.output).toContain("NO-DIR");
  });
});
