import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromConfig } from "../config.js";
import { analyzeCommand } from "./analyze.js";
import { toSubset } from "./subset.js";
import { decide } from "./test-decide.js";

const home = "/home/u";
const options = { cwd: "/home/u/ws", home };

describe("the modelled subset: accepted and printed canonically", () => {
  it.each([
    ["ls -la src", "ls -la src"],
    ["'rm' \"x\" r\\m", "rm x rm"],
    ["git status && rm x; echo 'a b' > f 2>&1", "git status && rm x; { echo 'a b' > f 2>&1; }"],
    ["echo x > f", "echo x > f"],
    ["cat <<'EOF'\nhello $x\nEOF", "cat <<< 'hello $x'"],
    ["cat <<EOF\nhello\nEOF", "cat <<< hello"],
    ["echo > >(tee log)", "echo > >(tee log)"],
    ["diff <(ls a) <(ls b)", "diff <(ls a) <(ls b)"],
    ["( cd /tmp && rm x ) | cat", "(cd /tmp && rm x) | cat"],
    ["{ a; b & }", "{ a; b & }"],
    ["A=1 B='x y' cmd", "A=1 B='x y' cmd"],
    ["[ -f x ] && echo", "'[' -f x ']' && echo"],
    ["echo a#b # comment", "echo 'a#b'"],
    ["echo ~ ~/x", "echo ~ ~/x"],
    ["time -p ls | wc", "time -p ls | wc"],
    ["a &&\n b", "a && b"],
  ])("%j → %j", (command, canonical) => {
    expect(toSubset(command, home)).toEqual({ ok: true, text: canonical });
  });
});

describe("outside the subset: refused (opaque)", () => {
  it.each([
    "r\\\nm x", "r{m,} x", "/bin/r[m] x", "/bin/r? x", "echo `a`", "echo $'a'", "echo $x", "echo \"$x\"", "echo ${x@P}",
    "echo $((1+1))", "ls ;; pwd", "ls ;& pwd", "if true; then x; fi", "for a in b; do c; done", "while false; do x; done",
    "case a in a) x;; esac", "[[ -f x ]]", "(( 1 ))", "f() { x; }", "function f { x; }", "coproc x", "x+=1", "a[0]=1 ls",
    "echo ~root", "a=~/x ls", "echo >&file", "cat <> f", "echo 'unterminated", "echo \"unterminated", "cat <<EOF\n$x\nEOF",
    "cat <<EOF\nno end", "time A=1 ls", "echo a\0b", "{ ls }", "( )", "ls |", "&& ls",
  ])("%j", (command) => {
    expect(toSubset(command, home).ok).toBe(false);
  });
});

describe("agreements with peers (issue 33)", () => {
  const rules = fromConfig({ bash: { "*": "allow", "rm *": "deny" }, edit: { "*": "allow" } });

  it("a redirection into a process substitution is analysed: its commands are known", async () => {
    const analysis = await analyzeCommand("npm test > >(tee log)", options);
    expect(analysis.opaque).toBe(false);
    expect(analysis.patterns).toEqual(["tee log", "npm test"]);
    expect(await decide("npm test > >(tee log)", rules, options)).toBe("allow");
    expect(await decide("npm test > >(rm log)", rules, options)).toBe("deny");
  });

  it("`ls ;; pwd` is a syntax error: asked, not allowed", async () => {
    expect((await analyzeCommand("ls ;; pwd", options)).opaque).toBe(true);
    expect(await decide("ls ;; pwd", rules, options)).toBe("ask");
  });
});

describe("a quoted program name with a blank names one program", () => {
  it("is opaque, never matched as two words", async () => {
    const analysis = await analyzeCommand("'git status' --short", options);
    expect(analysis.opaque).toBe(true);
    const allowList = fromConfig({ bash: { "*": "ask", "git status *": "allow" } });
    expect(await decide("'git status' --short", allowList, options)).toBe("ask");
  });
});

describe("redirections belong to their own command (tree-sitter binds them to the whole list)", () => {
  it("the folder after cd judges the redirection after it", async () => {
    const analysis = await analyzeCommand("cd sub && echo x > ../k", options);
    expect(analysis.paths.filter((p) => p.write).map((p) => p.path)).toEqual(["/home/u/ws/k"]);
  });

  it("a cd inside a subshell moves the commands after it in the subshell, not after the subshell", async () => {
    const analysis = await analyzeCommand("(cd sub && echo x > a) ; echo y > b", options);
    expect(analysis.paths.filter((p) => p.write).map((p) => p.path).sort()).toEqual(["/home/u/ws/b", "/home/u/ws/sub/a"]);
    // After `;` the cd may have failed: both folders are judged.
    const either = await analyzeCommand("(cd sub; echo x > a)", options);
    expect(either.paths.filter((p) => p.write).map((p) => p.path).sort()).toEqual(["/home/u/ws/a", "/home/u/ws/sub/a"]);
  });

  it("keeps `..` for the kernel-like resolver (spelled) and gives the lexical path", async () => {
    const [use] = (await analyzeCommand("echo x > link/../k", options)).paths;
    expect(use).toEqual({ path: "/home/u/ws/k", directory: false, write: true, spelled: "/home/u/ws/link/../k" });
  });
});

describe("never throws", () => {
  it("on any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        const result = toSubset(text, home);
        expect(typeof result.ok).toBe("boolean");
      }),
      { numRuns: 2000, seed: 33 },
    );
  });
});
