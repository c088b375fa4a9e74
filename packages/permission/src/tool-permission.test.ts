import { describe, expect, it } from "vitest";
import { fromConfig } from "./config.js";
import { AGENT_RULES, DEFAULT_RULES, agentRuleset } from "./defaults.js";
import { evaluate } from "./evaluate.js";
import { disabled, permissionForTool } from "./tool-permission.js";

const TOOLS = ["read", "write", "edit", "multiedit", "apply_patch", "bash", "glob", "grep", "list", "todo", "webfetch", "task"];

describe("permissionForTool", () => {
  it("maps the file-changing tools to edit", () => {
    for (const tool of ["edit", "write", "multiedit", "apply_patch"]) expect(permissionForTool(tool)).toBe("edit");
    expect(permissionForTool("bash")).toBe("bash");
    expect(permissionForTool("mcp_x")).toBe("mcp_x");
  });
});

describe("disabled", () => {
  it("hides tools whose permission is denied for *", () => {
    expect(disabled(TOOLS, fromConfig({ edit: "deny" }))).toEqual(new Set(["write", "edit", "multiedit", "apply_patch"]));
    expect(disabled(["bash", "read"], fromConfig({ "*": "deny", bash: "allow" }))).toEqual(new Set(["read"]));
    expect(disabled(["bash", "read"], fromConfig({ bash: "allow", "*": "deny" }))).toEqual(new Set(["bash", "read"]));
  });

  it("keeps a tool some later rule allows or asks for", () => {
    expect(disabled(["edit"], fromConfig({ edit: { "*": "deny", "docs/*": "allow" } })).size).toBe(0);
    expect(disabled(["bash"], fromConfig({ bash: { "*": "deny", "git *": "ask" } })).size).toBe(0);
    expect(disabled(["bash"], fromConfig({ bash: { "rm *": "deny" } })).size).toBe(0);
    expect(disabled(["bash"], [])).toEqual(new Set());
  });

  it("still hides a tool when later rules only deny more", () => {
    expect(disabled(["bash"], fromConfig({ bash: { "*": "deny", "rm *": "deny" } }))).toEqual(new Set(["bash"]));
  });

  it("matches glob permission names and takes several rulesets", () => {
    expect(disabled(["mcp_a", "mcp_b", "bash"], fromConfig({ "mcp_*": "deny" }), fromConfig({ mcp_b: "ask" }))).toEqual(
      new Set(["mcp_a"]),
    );
  });
});

describe("default rulesets", () => {
  const build = agentRuleset("build");
  const plan = agentRuleset("plan");
  const explore = agentRuleset("explore");
  const general = agentRuleset("general");

  it("build allows everything but asks for doom loops, outside paths and .env reads", () => {
    expect(evaluate("bash", "rm -rf x", build).action).toBe("allow");
    expect(evaluate("edit", "src/a.ts", build).action).toBe("allow");
    expect(evaluate("doom_loop", "bash", build).action).toBe("ask");
    expect(evaluate("external_directory", "/etc/*", build).action).toBe("ask");
    expect(evaluate("read", "/w/.env", build).action).toBe("ask");
    expect(evaluate("read", "/w/.env.local", build).action).toBe("ask");
    expect(evaluate("read", "/w/.env.example", build).action).toBe("allow");
    expect(evaluate("read", "/w/src/env.ts", build).action).toBe("allow");
    expect(disabled(TOOLS, build).size).toBe(0);
  });

  it("every built-in agent asks before writing inside .git (hooks and config run as code)", () => {
    for (const rules of [build, general]) {
      for (const file of [".git/hooks/pre-commit", ".git/config", ".git", "sub/.git/hooks/post-checkout", "/elsewhere/repo/.git/config"]) {
        expect(evaluate("edit", file, rules).action).toBe("ask");
      }
      expect(evaluate("edit", ".gitignore", rules).action).toBe("allow");
      expect(evaluate("edit", "src/.github/x.yml", rules).action).toBe("allow");
    }
    for (const rules of [plan, explore]) expect(evaluate("edit", ".git/hooks/pre-commit", rules).action).toBe("deny");
  });

  it("plan cannot edit", () => {
    expect(evaluate("edit", "src/a.ts", plan).action).toBe("deny");
    expect(disabled(TOOLS, plan)).toEqual(new Set(["write", "edit", "multiedit", "apply_patch"]));
    expect(evaluate("bash", "ls", plan).action).toBe("allow");
  });

  it("explore offers read-only tools only", () => {
    expect([...disabled(TOOLS, explore)].sort()).toEqual(["apply_patch", "bash", "edit", "multiedit", "task", "todo", "write"]);
    expect(evaluate("read", "/w/.env", explore).action).toBe("ask");
    expect(evaluate("doom_loop", "read", explore).action).toBe("ask");
  });

  it("general has no todo list", () => {
    expect(disabled(TOOLS, general)).toEqual(new Set(["todo"]));
  });

  it("merges defaults → agent → host global → host per-agent", () => {
    const global = fromConfig({ edit: "ask", bash: "deny" });
    const perAgent = fromConfig({ bash: { "git *": "allow" } });
    const rules = agentRuleset("plan", { global, perAgent });
    expect(rules).toEqual([...DEFAULT_RULES, ...AGENT_RULES.plan, ...global, ...perAgent]);
    expect(evaluate("edit", "a.ts", rules).action).toBe("ask"); // host global overrides the agent
    expect(evaluate("bash", "git log", rules).action).toBe("allow"); // per-agent overrides global
    expect(evaluate("bash", "ls", rules).action).toBe("deny");
  });

  it("custom agents get the defaults plus their own layer", () => {
    const own = fromConfig({ bash: "deny" });
    expect(agentRuleset("reviewer", { agent: own })).toEqual([...DEFAULT_RULES, ...own]);
    expect(agentRuleset("toString")).toEqual([...DEFAULT_RULES]);
  });

  it("exported defaults cannot be mutated by accident", () => {
    expect(() => (DEFAULT_RULES as unknown as unknown[]).push({})).toThrow();
    expect(() => {
      (DEFAULT_RULES[0] as { action: string }).action = "deny";
    }).toThrow();
  });
});
