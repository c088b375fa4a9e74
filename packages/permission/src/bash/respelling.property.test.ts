import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Rule } from "../rule.js";
import { type Decision, decide } from "./test-decide.js";

const STRICTNESS: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };
const options = { cwd: "/home/u/ws", home: "/home/u" };

/** Commands as words, the way the canonical form joins them. */
const NAMES = ["rm", "git", "ls", "cat", "npm", "echo", "kubectl", "curl", "docker"];
const ARGS = ["push", "status", "-rf", "build", "x", "delete", "pod", "--force", "test", "run", "origin", "compose", "down", "-la", "src"];
const command = fc.tuple(fc.constantFrom(...NAMES), fc.array(fc.constantFrom(...ARGS), { maxLength: 4 }));

const PATTERNS = [
  "*", "rm *", "git push *", "git *", "git status *", "ls *", "cat *", "npm test *", "npm *", "echo *", "kubectl delete *",
  "docker compose down *", "curl *", "*push*", "*-rf*", "/bin/*", "/usr/bin/*", "nice *", "timeout *", "sudo *", "env *",
  "busybox *", "command *", "*\\\\*", "*  *", "*'*", '*"*', "rm", "git push", "* x", "*build*",
];
const rule = fc.record({
  permission: fc.constantFrom("bash", "*"),
  pattern: fc.constantFrom(...PATTERNS),
  action: fc.constantFrom<Decision>("allow", "ask", "deny"),
});
const ruleset = fc.array(rule, { minLength: 1, maxLength: 8 });

/** A respelling of the name: the same program, written differently. */
const nameSpelling = fc.constantFrom<(name: string) => string>(
  (n) => n,
  (n) => `/bin/${n}`,
  (n) => `/usr/bin/${n}`,
  (n) => `"${n}"`,
  (n) => `'${n}'`,
  (n) => `\\${n}`,
  (n) => `${n.slice(0, 1)}""${n.slice(1)}`,
  (n) => `${n.slice(0, 1)}\\${n.slice(1)}`,
);
/** Whitespace between words: bash splits on any run of blanks, and on escaped newlines. */
const gap = fc.constantFrom(" ", "  ", "\t", " \t ", " \\\n  ");
/** A wrapper that runs the command as it is, or as another user. */
const wrapper = fc.constantFrom("", "nice ", "nohup ", "timeout 5 ", "env ", "command ", "sudo ", "busybox ", "time ", "stdbuf -oL ", "exec ");
const argSpelling = fc.constantFrom<(arg: string) => string>((a) => a, (a) => `'${a}'`, (a) => `"${a}"`);

describe("respellings are never decided more permissively than the canonical command", () => {
  it("holds for random rule sets, commands and respellings", async () => {
    await fc.assert(
      fc.asyncProperty(
        ruleset,
        command,
        nameSpelling,
        fc.array(gap, { minLength: 5, maxLength: 5 }),
        wrapper,
        fc.array(argSpelling, { minLength: 4, maxLength: 4 }),
        async (rules, [name, args], spellName, gaps, wrap, spellArgs) => {
          const canonical = [name, ...args].join(" ");
          const words = [spellName(name), ...args.map((a, i) => spellArgs[i]!(a))];
          const respelled = wrap + words.map((w, i) => (i === 0 ? w : gaps[i]! + w)).join("");
          const [base, variant] = await Promise.all([decide(canonical, rules, options), decide(respelled, rules, options)]);
          expect(STRICTNESS[variant], `${JSON.stringify(respelled)} (${variant}) vs ${JSON.stringify(canonical)} (${base})`).toBeGreaterThanOrEqual(STRICTNESS[base]);
        },
      ),
      { numRuns: 1500 },
    );
  }, 120_000);

  it("a denied command stays denied however it is spelled (the cases from the issue)", async () => {
    const rules: Rule[] = [
      { permission: "bash", pattern: "*", action: "allow" },
      { permission: "bash", pattern: "rm *", action: "deny" },
      { permission: "bash", pattern: "git push *", action: "deny" },
    ];
    for (const spelling of ["/bin/rm x", "rm\tx", "git  push", "git -C . push", "git --no-pager push", "busybox rm x"]) {
      expect(await decide(spelling, rules, options), spelling).toBe("deny");
    }
  });
});
