// Property: for random trees with symlinks (inside the workspace, leading out, dangling, looping),
// every tool reaches the same decision for the same target — the external_directory ask and the
// read/edit pattern — and that decision is where the path really lands, per a reference resolver
// that walks the path component by component (lstat, readlink), `..` after symlinks as the kernel
// does, independently of realpathLoose.
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApplyPatchTool } from "./apply-patch/apply-patch.js";
import { createBashTool } from "./bash/bash.js";
import { createEditTool } from "./edit/edit.js";
import { createGlobTool } from "./glob/glob.js";
import { createGrepTool } from "./grep/grep.js";
import { createListTool } from "./list/list.js";
import { createReadTool } from "./read/read.js";
import { testContext } from "./test-context.js";
import type { Tool, ToolPermissionRequest } from "./tool.js";
import { createWriteTool } from "./write/write.js";

const NAMES = ["a", "b", "c"] as const;

type Entry = { kind: "dir" } | { kind: "file" } | { kind: "link"; target: string };

/** A tree: relative path → entry (parents are made as folders when needed). */
const treeArb = fc.array(
  fc.tuple(
    fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }).map((parts) => parts.join("/")),
    fc.oneof(
      fc.constant<Entry>({ kind: "dir" }),
      fc.constant<Entry>({ kind: "file" }),
      fc
        .tuple(
          fc.constantFrom("rel", "up", "abs-in", "abs-out"),
          fc.array(fc.constantFrom(...NAMES, "missing"), { minLength: 0, maxLength: 3 }),
        )
        .map(([where, parts]): Entry => ({ kind: "link", target: `${where}:${parts.join("/")}` })),
    ),
  ),
  { minLength: 1, maxLength: 12 },
);

const queryArb = fc.array(fc.constantFrom(...NAMES, "..", "missing"), { minLength: 1, maxLength: 5 }).map((parts) => parts.join("/"));

function build(workspace: string, outside: string, tree: Array<[string, Entry]>): void {
  for (const name of NAMES) mkdirSync(path.join(outside, name), { recursive: true });
  writeFileSync(path.join(outside, "a", "file"), "x");
  for (const [rel, entry] of tree) {
    const at = path.join(workspace, rel);
    try {
      mkdirSync(path.dirname(at), { recursive: true });
      if (entry.kind === "dir") mkdirSync(at, { recursive: true });
      else if (entry.kind === "file") writeFileSync(at, "x");
      else {
        const [where, rest] = entry.target.split(":") as [string, string];
        const target =
          where === "rel" ? rest || "." : where === "up" ? `../${rest}` : where === "abs-in" ? path.join(workspace, rest) : path.join(outside, rest);
        symlinkSync(target, at);
      }
    } catch {
      // a name already taken by an earlier entry, or a parent that is a file or a link: skipped
    }
  }
}

/**
 * The reference: each `..` applied as the kernel applies it — to the real folder reached so far, so
 * `link/..` is the parent of the link's target — and each stretch between them walked component by
 * component through symlinks.
 */
function reference(absolute: string): string | "loop" {
  let current = "/";
  for (const part of absolute.split("/").filter((p) => p !== "" && p !== ".")) {
    if (part !== "..") {
      current = path.join(current, part);
      continue;
    }
    const real = walk(current);
    if (real === "loop") return "loop";
    current = path.dirname(real);
  }
  return walk(current);
}

/** A path without `..`, walked component by component (lstat, readlink) to where it lands. */
function walk(absolute: string): string | "loop" {
  let done = "/";
  let rest = path.resolve(absolute).split("/").filter(Boolean);
  let hops = 0;
  while (rest.length) {
    const next = path.join(done, rest.shift()!);
    let info;
    try {
      info = lstatSync(next);
    } catch {
      return path.join(next, ...rest);
    }
    if (info.isSymbolicLink()) {
      if (++hops > 40) return "loop";
      rest = [...path.resolve(done, readlinkSync(next)).split("/").filter(Boolean), ...rest];
      done = "/";
      continue;
    }
    if (!info.isDirectory() && rest.length) return path.join(next, ...rest);
    done = next;
  }
  return done;
}

const inside = (root: string, p: string) => p === root || p.startsWith(`${root}/`);

const FILE_TOOLS: Array<[Tool, (p: string) => Record<string, unknown>]> = [
  [createReadTool(), (p) => ({ path: p })],
  [createWriteTool(), (p) => ({ path: p, content: "changed" })],
  [createEditTool(), (p) => ({ path: p, oldString: "x", newString: "y" })],
  [createApplyPatchTool(), (p) => ({ patchText: `*** Begin Patch\n*** Add File: ${p}\n+y\n*** End Patch` })],
];
const FOLDER_TOOLS: Array<[Tool, (p: string) => Record<string, unknown>]> = [
  [createListTool(), (p) => ({ path: p })],
  [createGlobTool({ ripgrep: false }), (p) => ({ pattern: "*", path: p })],
  [createGrepTool({ ripgrep: false }), (p) => ({ pattern: "x", path: p })],
  [createBashTool(), (p) => ({ command: "true", workdir: p })],
];

class Stop extends Error {}

describe("path resolution property", () => {
  it("every tool asks the same thing for the same target, and it is where the path really lands", async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, queryArb, async (tree, query) => {
        // Nested deeper than a query can climb (at most five `..`), so a walk above the workspace
        // stays in this test's folders instead of reaching the whole file system.
        const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-prop-")));
        const workspace = path.join(base, "1", "2", "3", "4", "5", "ws");
        mkdirSync(workspace, { recursive: true });
        const outside = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-prop-out-")));
        try {
          build(workspace, outside, tree);
          // Joined as text, not with path.join: that would apply `..` before the symlinks.
          const real = reference(`${workspace}/${query}`);
          const run = async (tool: Tool, input: Record<string, unknown>) => {
            const checks: string[] = [];
            // Outside asks are allowed (to see the path ask after them); edits are stopped before any write.
            const ctx = testContext(workspace, {
              decide: (r) => {
                if (r.permission === "edit") throw new Stop();
              },
              check: (r) => {
                checks.push(r.patterns[0]!);
                return "allow";
              },
            });
            // The read-before-write guard wants the file read first (the read is allowed).
            if (tool.name !== "read") await FILE_TOOLS[0]![0].execute({ path: query } as never, ctx).catch(() => {});
            ctx.asks.length = 0;
            const error = await tool.execute(input as never, ctx).then(
              () => undefined,
              (e: unknown) => e as Error,
            );
            return { asks: ctx.asks as ToolPermissionRequest[], checks, error };
          };

          if (real === "loop") {
            for (const [tool, input] of [...FILE_TOOLS, ...FOLDER_TOOLS]) {
              const { asks, error } = await run(tool, input(query));
              expect(error?.message, tool.name).toMatch(/loop/);
              expect(asks.filter((a) => a.permission !== "bash"), tool.name).toEqual([]);
            }
            return;
          }
          const external = !inside(workspace, real);
          const pathPattern = external ? real : path.relative(workspace, real) || ".";
          for (const [tool, input] of FILE_TOOLS) {
            const { asks } = await run(tool, input(query));
            const outsideAsks = asks.filter((a) => a.permission === "external_directory");
            expect(outsideAsks.map((a) => a.patterns[0]), tool.name).toEqual(external ? [path.join(path.dirname(real), "*")] : []);
            if (external) expect(asks[0]!.permission, tool.name).toBe("external_directory");
            for (const ask of asks.filter((a) => a.permission === "read" || a.permission === "edit")) {
              expect(ask.patterns, `${tool.name} ${query} → ${real}`).toEqual([pathPattern]);
            }
            if (tool.name === "read") expect(asks.some((a) => a.permission === "read")).toBe(true);
          }
          for (const [tool, input] of FOLDER_TOOLS) {
            const { asks, checks } = await run(tool, input(query));
            const outsideAsks = asks.filter((a) => a.permission === "external_directory");
            expect(outsideAsks.map((a) => a.patterns[0]), tool.name).toEqual(external ? [path.join(real, "*")] : []);
            // grep checks read on the target itself when it is a file.
            if (tool.name === "grep" && checks.length && lstatSync(real, { throwIfNoEntry: false })?.isFile()) expect(checks).toEqual([pathPattern]);
          }
        } finally {
          rmSync(base, { recursive: true, force: true });
          rmSync(outside, { recursive: true, force: true });
        }
      }),
      { numRuns: 25 },
    );
  }, 300_000);
});
