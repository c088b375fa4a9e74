import { describe, expect, it, vi } from "vitest";
import { fromConfig } from "./config.js";
import { agentRuleset } from "./defaults.js";
import { DeniedError } from "./errors.js";
import { evaluateWithMode, PermissionMode } from "./mode.js";
import { PermissionService } from "./service.js";

// The build agent under a host's rules: shell commands ask but `git status`, `rm *` and editing
// `.env` files are denied, and one directory outside the workspace is allowed.
const HOST = fromConfig({
  bash: { "*": "ask", "git status*": "allow", "rm *": "deny" },
  edit: { "*.env": "deny", "generated/*": "ask" },
  external_directory: { "/tmp/shared/*": "allow" },
  webfetch: "ask",
});
const BUILD = agentRuleset("build", { global: HOST });
// The plan agent as core builds it: edits denied but for plan files, shell commands asked.
const PLAN = agentRuleset("plan", { agent: fromConfig({ edit: { "*": "deny", ".lathe/plans/*.md": "allow" }, bash: "ask" }), global: HOST });

type Row = [permission: string, pattern: string, expected: Record<PermissionMode, "allow" | "ask" | "deny">];

// What each mode decides for a table of tool calls (permission + pattern).
const TABLE: Row[] = [
  ["read", "src/a.ts", { default: "allow", acceptEdits: "allow", plan: "allow", bypass: "allow" }],
  ["read", ".env", { default: "ask", acceptEdits: "ask", plan: "ask", bypass: "allow" }],
  ["edit", "src/a.ts", { default: "allow", acceptEdits: "allow", plan: "deny", bypass: "allow" }],
  // The host's rules apply to the plan agent too: where they ask, plan mode asks.
  ["edit", "generated/b.ts", { default: "ask", acceptEdits: "allow", plan: "ask", bypass: "allow" }],
  ["edit", "/etc/hosts", { default: "allow", acceptEdits: "allow", plan: "deny", bypass: "allow" }],
  ["edit", ".lathe/plans/fix.md", { default: "allow", acceptEdits: "allow", plan: "allow", bypass: "allow" }],
  ["edit", "config/prod.env", { default: "deny", acceptEdits: "deny", plan: "deny", bypass: "deny" }],
  ["bash", "git status", { default: "allow", acceptEdits: "allow", plan: "allow", bypass: "allow" }],
  ["bash", "git push", { default: "ask", acceptEdits: "ask", plan: "ask", bypass: "allow" }],
  ["bash", "npm test", { default: "ask", acceptEdits: "ask", plan: "ask", bypass: "allow" }],
  ["bash", "rm -rf build", { default: "deny", acceptEdits: "deny", plan: "deny", bypass: "deny" }],
  ["webfetch", "https://example.com", { default: "ask", acceptEdits: "ask", plan: "ask", bypass: "allow" }],
  ["doom_loop", "bash", { default: "ask", acceptEdits: "ask", plan: "ask", bypass: "allow" }],
  ["external_directory", "/home/other/*", { default: "ask", acceptEdits: "ask", plan: "ask", bypass: "ask" }],
  ["external_directory", "/tmp/shared/*", { default: "allow", acceptEdits: "allow", plan: "allow", bypass: "allow" }],
];

describe("evaluateWithMode", () => {
  for (const mode of PermissionMode.options) {
    it(`decides the table of tool calls in ${mode} mode`, () => {
      const decided = TABLE.map(([permission, pattern]) => evaluateWithMode(mode, permission, pattern, BUILD, PLAN).action);
      expect(decided).toEqual(TABLE.map(([, , expected]) => expected[mode]));
    });
  }

  it("never turns a deny rule into anything else, whatever the mode or the rule's place", () => {
    const rules = fromConfig({ "*": "deny", read: "allow" });
    for (const mode of PermissionMode.options) {
      expect(evaluateWithMode(mode, "bash", "ls", rules, PLAN).action).toBe("deny");
      expect(evaluateWithMode(mode, "edit", "a.ts", rules, PLAN).action).toBe("deny");
      expect(evaluateWithMode(mode, "external_directory", "/x/*", rules, PLAN).action).toBe("deny");
    }
  });

  it("acceptEdits allows only workspace-relative edits, not escapes with ..", () => {
    const rules = fromConfig({ edit: "ask" });
    expect(evaluateWithMode("acceptEdits", "edit", "src/../a.ts", rules).action).toBe("ask");
    expect(evaluateWithMode("acceptEdits", "edit", "../outside.ts", rules).action).toBe("ask");
    expect(evaluateWithMode("acceptEdits", "edit", "C:/x.ts", rules).action).toBe("ask");
    expect(evaluateWithMode("acceptEdits", "edit", "a/b.ts", rules).action).toBe("allow");
    expect(evaluateWithMode("acceptEdits", "edit", ".git/hooks/pre-commit", rules).action).toBe("ask");
    expect(evaluateWithMode("acceptEdits", "edit", "vendor/lib/.git/config", rules).action).toBe("ask");
  });

  it("checks other spellings of a command: their deny holds in every mode, their ask only where the mode asks", () => {
    const rules = fromConfig({ bash: { "*": "allow", "/usr/bin/*": "deny", "sudo *": "ask" } });
    for (const mode of PermissionMode.options) {
      expect(evaluateWithMode(mode, "bash", "rm x", rules, PLAN, ["/usr/bin/rm x"]).action).toBe("deny");
    }
    expect(evaluateWithMode("default", "bash", "ls", rules, PLAN, ["sudo ls"])).toMatchObject({ action: "ask", pattern: "sudo ls" });
    expect(evaluateWithMode("bypass", "bash", "ls", rules, PLAN, ["sudo ls"])).toMatchObject({ action: "allow", pattern: "ls" });
  });

  it("plan without a plan ruleset still denies edits", () => {
    expect(evaluateWithMode("plan", "edit", "a.ts", BUILD).action).toBe("deny");
  });
});

describe("PermissionService with a mode", () => {
  it("bypass asks for an opaque command when a deny or ask rule exists for bash, and a deny rule still throws", async () => {
    const approve = vi.fn(async () => "once" as const);
    const service = new PermissionService({ approve });
    const ask = { sessionID: "s", permission: "bash", always: [], ruleset: BUILD };
    await service.ask({ ...ask, patterns: ["eval $X"], opaque: true, mode: "bypass" });
    expect(approve).toHaveBeenCalledTimes(1); // `rm *` is denied: what `$X` holds could be rm
    await expect(service.ask({ ...ask, patterns: ["rm -rf /"], mode: "bypass" })).rejects.toBeInstanceOf(DeniedError);
    await service.ask({ ...ask, patterns: ["eval $X"], opaque: true, mode: "default" });
    expect(approve).toHaveBeenCalledTimes(2);
  });

  it("bypass runs an opaque command unasked only when no deny or ask rule exists for bash", async () => {
    const approve = vi.fn(async () => "once" as const);
    const service = new PermissionService({ approve });
    const open = [...BUILD.filter((rule) => rule.permission !== "bash"), { permission: "bash", pattern: "*", action: "allow" as const }];
    await service.ask({ sessionID: "s", permission: "bash", always: [], ruleset: open, patterns: ["eval $X"], opaque: true, mode: "bypass" });
    expect(approve).not.toHaveBeenCalled();
    const asking = [...open, { permission: "bash", pattern: "curl *", action: "ask" as const }];
    await service.ask({ sessionID: "s", permission: "bash", always: [], ruleset: asking, patterns: ["eval $X"], opaque: true, mode: "bypass" });
    expect(approve).toHaveBeenCalledTimes(1);
  });

  it("plan mode denies an edit with the plan agent's rule named", async () => {
    const service = new PermissionService();
    const error = await service
      .ask({ sessionID: "s", permission: "edit", patterns: ["src/a.ts"], ruleset: BUILD, mode: "plan", planRuleset: PLAN })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeniedError);
    expect((error as DeniedError).rule).toEqual({ permission: "edit", pattern: "*", action: "deny" });
  });

  it("rejects an unknown mode", async () => {
    const service = new PermissionService();
    await expect(service.ask({ sessionID: "s", permission: "read", patterns: ["a"], ruleset: BUILD, mode: "yolo" as never })).rejects.toThrow();
  });
});
