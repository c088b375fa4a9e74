// End to end through createAgent: each root cause of the fail-closed issue (bash joining what a
// parser splits, code run from text taken for data, wrappers, options whose value is a program,
// variables set without `NAME=`, paths judged on text, the analysis budget, command templates),
// in default, acceptEdits and bypass mode. The host refuses every ask, so a command takes effect on
// disk only if it ran without one; the test checks that none did.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, type PermissionMode, type PermissionRequest } from "@lathe/core";
import { mockModel } from "@lathe/mock";

let root: string;
let ws: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lathe-fail-closed-"));
  ws = join(root, "ws");
  mkdirSync(join(ws, "secrets"), { recursive: true });
  mkdirSync(join(ws, "other/inner"), { recursive: true });
  symlinkSync("other/inner", join(ws, "link"));
  writeFileSync(join(ws, "a"), "a\n");
  writeFileSync(join(ws, ".env"), "SECRET=1\n");
  writeFileSync(join(ws, "secrets/target"), "untouched\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const PERMISSION = {
  bash: { "*": "allow", "rm *": "deny", "git push *": "deny", "curl *": "deny" },
  read: { "*.env": "deny" },
  edit: { "*": "allow", "secrets/*": "deny" },
} as const;

/** Per root cause, commands that would delete `victim-N` or write into `secrets/` if they ran. */
const CLASSES: Record<string, ((n: number) => string)[]> = {
  "bash joins what a parser splits": [
    (n) => `r\\\nm victim-${n}`,
    (n) => `r{m,} victim-${n}`,
    (n) => `/bin/r[m] victim-${n}`,
    (n) => `sh -c "echo hi\nrm -f victim-${n}"`,
  ],
  "code run from text taken for data": [
    (n) => `echo \`echo \\\`rm victim-${n}\\\`\``,
    (n) => `P='$(rm victim-${n})'; echo \${P@P}`,
    (n) => `let 'a[$(rm victim-${n})]=1'`,
    (n) => `test -v 'a[$(rm victim-${n})]'`,
    (n) => `mapfile -C 'rm victim-${n} #' -c 1 a <<< x`,
    (n) => `read PS4 <<< '$(rm victim-${n})'; set -x; true`,
    (n) => `coproc rm victim-${n}; wait`,
  ],
  "wrappers": [
    (n) => `flock lockf -c 'rm victim-${n}'`,
    (n) => `script -qc 'rm victim-${n}' /dev/null`,
    (n) => `prlimit rm victim-${n}`,
    (n) => `setpriv rm victim-${n}`,
    (n) => `rbash -c 'rm victim-${n}'`,
    (n) => `bash -c -o posix 'rm victim-${n}'`,
    (n) => `bash /dev/stdin <<< 'rm victim-${n}'`,
    (n) => `bash - <<< 'rm victim-${n}'`,
    (n) => `env -S 'rm victim-${n}'`,
  ],
  "options whose value is a program": [
    (n) => `rg --pre rm x victim-${n}`,
    (n) => `tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='rm victim-${n}' a`,
    (n) => `split --filter='rm victim-${n}' a`,
  ],
  "variables set without NAME=": [
    (n) => `export 'X=rm'; $X victim-${n}`,
    (n) => `declare -x X=rm; $X victim-${n}`,
    (n) => `read X <<< rm; $X victim-${n}`,
    (n) => `: \${X:=rm}; $X victim-${n}`,
  ],
  "paths judged on text": [
    () => "echo x > secre*/target",
    () => "echo x >> secrets/targ?t",
    (n) => `echo x > link/../../secrets/k${n}`,
    (n) => `cd secrets && echo x > k${n}`,
    (n) => `pushd secrets; echo x > k${n}`,
    (n) => `cd -- secrets; echo x > k${n}`,
    (n) => `env -C secrets tee k${n} <<< x`,
  ],
  "the analysis budget": [(n) => `${"true; ".repeat(40_000)}rm victim-${n}`],
};

const COMMANDS = Object.entries(CLASSES).flatMap(([kind, makers]) => makers.map((make) => ({ kind, make })));

/** Whether command `n` took effect: its victim is gone or a file appeared in `secrets/`. */
function tookEffect(n: number): boolean {
  return !existsSync(join(ws, `victim-${n}`)) || existsSync(join(ws, "secrets", `k${n}`));
}

describe("shell rules fail closed, end to end", () => {
  for (const mode of ["default", "acceptEdits", "bypass"] as PermissionMode[]) {
    it(`in ${mode} mode, no root cause takes effect on disk without an ask`, async () => {
      COMMANDS.forEach((_, n) => writeFileSync(join(ws, `victim-${n}`), "still here"));
      const asks: PermissionRequest[] = [];
      const turns = [
        { toolCalls: COMMANDS.map(({ make }, n) => ({ id: `call-${n}`, name: "bash", input: { command: make(n), description: `try ${n}` } })) },
        { text: "done" },
      ];
      const agent = createAgent({
        model: mockModel(turns),
        cwd: ws,
        configDir: false,
        snapshots: false,
        dataDir: join(root, "data"),
        permission: PERMISSION,
        approve: async (request) => {
          asks.push(request);
          return { reject: "not this" };
        },
      });
      const session = await agent.sessions.create();
      const { parts } = await agent.prompt(session.id, "try them all", { mode });
      await agent.close();
      const tools = parts.filter((p) => p.type === "tool");
      expect(tools).toHaveLength(COMMANDS.length);
      for (const [n, { kind, make }] of COMMANDS.entries()) {
        const part = tools.find((p) => p.type === "tool" && p.callID === `call-${n}`)!;
        const label = `${kind}: ${JSON.stringify(make(n).slice(0, 80))}`;
        expect(tookEffect(n), label).toBe(false);
        // Refused by a rule, or asked (and refused by the host): never run unasked.
        expect(part.type === "tool" && part.state.status, label).toBe("error");
        const asked = asks.some((r) => r.tool?.callID === `call-${n}`);
        const denied = part.type === "tool" && part.state.status === "error" && /denied|rule/i.test(part.state.error);
        expect(asked || denied, label).toBe(true);
      }
      expect(readFileSync(join(ws, ".env"), "utf8")).toBe("SECRET=1\n");
      expect(readFileSync(join(ws, "secrets/target"), "utf8")).toBe("untouched\n");
    }, 120_000);
  }

  it("apply_patch's refusal does not quote a file whose read is denied", async () => {
    const patch = "*** Begin Patch\n*** Update File: .env\n@@\n-SECRET=2\n+SECRET=3\n*** End Patch";
    const agent = createAgent({
      model: mockModel([{ toolCalls: [{ id: "patch", name: "apply_patch", input: { patchText: patch } }] }, { text: "done" }]),
      cwd: ws,
      configDir: false,
      snapshots: false,
      dataDir: join(root, "data-patch"),
      permission: PERMISSION,
      approve: async () => "once",
    });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "patch it");
    await agent.close();
    const part = parts.find((p) => p.type === "tool");
    expect(part?.type === "tool" && part.state.status).toBe("error");
    const error = part?.type === "tool" && part.state.status === "error" ? part.state.error : "";
    expect(error).toMatch(/Failed to find/);
    expect(error).toContain("excerpt left out"); // a near miss was found, and withheld
    expect(error).not.toContain("SECRET=1");
  });

  it("a command template's !`cmd` blocks get the analysis the model's bash calls get", async () => {
    mkdirSync(join(ws, ".lathe/commands"), { recursive: true });
    writeFileSync(join(ws, "victim-t"), "still here");
    writeFileSync(join(ws, ".lathe/commands/opaque.md"), "Run: !`$(printf rm) victim-t`");
    writeFileSync(join(ws, ".lathe/commands/respelled.md"), "Run: !`git -C . push`");
    for (const mode of ["default", "bypass"] as PermissionMode[]) {
      const asks: PermissionRequest[] = [];
      const agent = createAgent({
        model: mockModel([{ text: "ok" }, { text: "ok" }]),
        cwd: ws,
        snapshots: false,
        dataDir: join(root, `data-${mode}`),
        permission: PERMISSION,
        approve: async (request) => {
          asks.push(request);
          return "reject";
        },
      });
      const session = await agent.sessions.create();
      await expect(agent.command(session.id, "opaque", undefined, { mode })).rejects.toThrow();
      expect(asks.map((r) => [r.permission, r.opaque === true])).toEqual([["bash", true]]);
      expect(existsSync(join(ws, "victim-t"))).toBe(true);
      await expect(agent.command(session.id, "respelled", undefined, { mode })).rejects.toThrow(/git push/);
      await agent.close();
    }
  }, 60_000);
});
