import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type PermissionConfig, fromConfig } from "../config.js";
import { type Decision, decide } from "./test-decide.js";
interface Corpus {
  workspace: string;
  home: string;
  configs: { denyList: PermissionConfig; allowList: PermissionConfig };
  cases: { command: string; kind: string; denyList: Decision; allowList: Decision }[];
}

const corpus = JSON.parse(readFileSync(new URL("../../test-data/shell-decisions.json", import.meta.url), "utf8")) as Corpus;

describe("shell decisions corpus", () => {
  it("has at least 150 commands, each listed once, covering every kind of respelling", () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.cases.map((c) => c.command)).size).toBe(corpus.cases.length);
    const kinds = new Set(corpus.cases.map((c) => c.kind));
    for (const kind of ["whitespace", "path", "quoting", "escape", "wrapper", "global options", "redirection", "nested shell", "substitution", "heredoc"]) {
      expect(kinds).toContain(kind);
    }
  });

  for (const config of ["denyList", "allowList"] as const) {
    const ruleset = fromConfig(corpus.configs[config], { home: corpus.home });
    it.each(corpus.cases.map((c) => [JSON.stringify(c.command), c[config], c] as const))(`${config}: %s → %s`, async (_name, expected, c) => {
      expect(await decide(c.command, ruleset, { cwd: corpus.workspace, home: corpus.home })).toBe(expected);
    });
  }
});
