import { describe, expect, it } from "vitest";
import { commandArguments, expandTemplate, shellQuote, splitArguments } from "./command-template.js";

const noShell = async (command: string) => {
  throw new Error(`unexpected shell block ${command}`);
};

describe("splitArguments", () => {
  it("splits on spaces, groups quotes, honours backslashes", () => {
    expect(splitArguments(`a "b c" 'd e' f\\ g  "" h`)).toEqual(["a", "b c", "d e", "f g", "", "h"]);
    expect(splitArguments("   ")).toEqual([]);
    expect(splitArguments(`say "it's"`)).toEqual(["say", "it's"]);
  });
});

describe("expandTemplate", () => {
  it("replaces $ARGUMENTS and $1…$9, leaving $10 and missing words empty", async () => {
    const args = commandArguments("one two three");
    expect(await expandTemplate("all=$ARGUMENTS first=$1 third=$3 ninth=[$9] ten=$10", args, noShell)).toBe(
      "all=one two three first=one third=three ninth=[] ten=$10",
    );
  });

  it("never substitutes twice: $ sequences and shell blocks inside arguments stay literal", async () => {
    const args = commandArguments(["$2", "$ARGUMENTS", "!`rm -rf ~`", "$$"]);
    const out = await expandTemplate("a=$1 b=$2 c=$3 d=$4 all=$ARGUMENTS", args, noShell);
    expect(out).toBe("a=$2 b=$ARGUMENTS c=!`rm -rf ~` d=$$ all=$2 $ARGUMENTS !`rm -rf ~` $$");
  });

  it("appends the arguments when the template names no placeholder", async () => {
    expect(await expandTemplate("Review the code.\n", commandArguments("src/a.ts"), noShell)).toBe("Review the code.\n\nsrc/a.ts");
    expect(await expandTemplate("Review the code.", commandArguments(""), noShell)).toBe("Review the code.");
  });

  it("runs shell blocks in order with shell-quoted arguments, inserting their output once", async () => {
    const ran: string[] = [];
    const out = await expandTemplate(
      "Log: !`git log -n 1 $1`\nStatus: !`git status`\nAbout: $ARGUMENTS",
      commandArguments(["main; rm -rf ~", "x"]),
      async (command) => {
        ran.push(command);
        return `out of ${command} $1 !\`echo again\`\n`;
      },
    );
    expect(ran).toEqual([`git log -n 1 ${shellQuote("main; rm -rf ~")}`, "git status"]);
    expect(out).toContain("Log: out of git log -n 1 'main; rm -rf ~' $1 !`echo again`\nStatus:");
    expect(out.endsWith("About: main; rm -rf ~ x")).toBe(true);
  });

  it("quotes words the shell would read specially, and only those", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("src/a.ts")).toBe("src/a.ts");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("$(id)")).toBe("'$(id)'");
    expect(shellQuote("")).toBe("''");
  });
});
