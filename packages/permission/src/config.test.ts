import { describe, expect, it } from "vitest";
import { expandHome, fromConfig } from "./config.js";

describe("fromConfig", () => {
  it("turns bare actions into catch-all rules and keeps key order", () => {
    expect(fromConfig({ bash: "ask", edit: { "*": "allow", "*.env": "deny" }, "*": "deny" })).toEqual([
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "edit", pattern: "*", action: "allow" },
      { permission: "edit", pattern: "*.env", action: "deny" },
      { permission: "*", pattern: "*", action: "deny" },
    ]);
  });

  it("keeps order from parsed JSON", () => {
    const rules = fromConfig(JSON.parse('{"bash": {"git push *": "deny", "git *": "allow", "*": "ask"}}'));
    expect(rules.map((r) => r.pattern)).toEqual(["git push *", "git *", "*"]);
  });

  it("expands ~, ~/…, $HOME and ${HOME} in patterns with the given home", () => {
    const rules = fromConfig(
      { external_directory: { "~": "allow", "~/code/*": "allow", "$HOME/tmp/*": "deny", "${HOME}/x": "ask", "/a/~/b": "ask", "~other/x": "ask" } },
      { home: "/home/u" },
    );
    expect(rules.map((r) => r.pattern)).toEqual(["/home/u", "/home/u/code/*", "/home/u/tmp/*", "/home/u/x", "/a/~/b", "~other/x"]);
  });

  it("defaults home to os.homedir()", async () => {
    const { homedir } = await import("node:os");
    expect(fromConfig({ read: { "~/x": "allow" } })[0]!.pattern).toBe(`${homedir()}/x`);
  });

  it("rejects bad actions and shapes", () => {
    expect(() => fromConfig({ bash: "maybe" } as never)).toThrow();
    expect(() => fromConfig({ bash: { "*": "yes" } } as never)).toThrow();
    expect(() => fromConfig(null as never)).toThrow();
  });

  it("expandHome leaves other text alone", () => {
    expect(expandHome("$HOMEWORK/x", "/h")).toBe("$HOMEWORK/x");
    expect(expandHome("$HOME", "/h")).toBe("/h");
    expect(expandHome("src/*", "/h")).toBe("src/*");
  });
});
