import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileWildcard, matchWildcard, wildcardToRegExp } from "./wildcard.js";

describe("wildcard semantics", () => {
  it.each([
    ["*", "", true],
    ["*", "anything/at all\nmulti-line", true],
    ["src/*", "src/a/b/c.ts", true], // * crosses /
    ["*.ts", "src/deep/file.ts", true],
    ["*.ts", "file.tsx", false],
    ["?", "a", true],
    ["?", "", false],
    ["?", "ab", false],
    ["file?.txt", "file1.txt", true],
    ["file?.txt", "file10.txt", false],
    ["git status *", "git status", true], // trailing " *" also matches the bare command
    ["git status *", "git status -s", true],
    ["git status *", "git statusx", false],
    ["git status*", "git statusx", true],
    ["ls", "ls", true],
    ["ls", "ls -la", false], // whole text
    ["LS", "ls", false], // case-sensitive
    ["a.b", "axb", false], // regex characters are literal
    ["(x)+[y]", "(x)+[y]", true],
    ["$HOME/*", "$HOME/x", true],
    ["*foo*", "a foo b", true],
    ["*foo *", "xfoo", true],
    ["*foo *", "xfoobar", false],
    [" *", "", true],
    ["a*b*c", "a/x/b/y/c", true],
    ["a*b*c", "a/x/b/y/d", false],
    ["mcp_*", "mcp_github_search", true],
  ])("%j matches %j → %s", (pattern, text, expected) => {
    expect(matchWildcard(pattern, text)).toBe(expected);
  });

  it("uses fast paths for the common shapes", () => {
    expect(compileWildcard("*").kind).toBe("any");
    expect(compileWildcard("**").kind).toBe("any");
    expect(compileWildcard("ls").kind).toBe("exact");
    expect(compileWildcard("src/*").kind).toBe("prefix");
    expect(compileWildcard("git commit *").kind).toBe("command");
    expect(compileWildcard("*.env").kind).toBe("suffix");
    expect(compileWildcard("*secret*").kind).toBe("contains");
    expect(compileWildcard("a?c").kind).toBe("regex");
  });

  it("compiles each pattern once (cached)", () => {
    expect(compileWildcard("cache-me *")).toBe(compileWildcard("cache-me *"));
  });

  it("keeps the cache bounded: old patterns are evicted, still match correctly", () => {
    const first = compileWildcard("evict-me-0 *");
    for (let i = 1; i <= 5000; i++) compileWildcard(`evict-me-${i} *`);
    const again = compileWildcard("evict-me-0 *");
    expect(again).not.toBe(first);
    expect(again.test("evict-me-0 --flag")).toBe(true);
  });

  it("fast paths agree with the reference regular expression", () => {
    const alphabet = fc.constantFrom("a", "b", " ", "/", ".", "*", "?", "\n");
    const text = fc.array(fc.constantFrom("a", "b", " ", "/", ".", "\n"), { maxLength: 8 }).map((c) => c.join(""));
    const pattern = fc.array(alphabet, { maxLength: 6 }).map((c) => c.join(""));
    fc.assert(
      fc.property(pattern, text, (p, t) => compileWildcard(p).test(t) === wildcardToRegExp(p).test(t)),
      { numRuns: 3000 },
    );
  });
});
