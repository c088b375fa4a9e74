// Runs apply_patch conformance scenarios the way Codex's harness judges them (see
// shared/conformance/codex-apply-patch/SOURCE.md): copy input/ into an empty temp directory, apply
// patch.txt, and compare the whole tree, directories included, byte for byte with expected/.
// Codex's upstream scenarios run when the shared folder is beside the repository; the package's
// own scenarios (packages/patch/scenarios) always run. Every scenario also runs against an
// in-memory map (same engine, other file system).
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { applyPatch } from "../index.js";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "..", "..");
const repoRoot = join(packageDir, "..", "..");
const upstreamDir = join(repoRoot, "..", "shared", "conformance", "codex-apply-patch");
const ownDir = join(packageDir, "scenarios");

/** Codex keeps the Add that preceded the failure; Lathe's commits are atomic, so nothing may change. */
const ATOMIC_INSTEAD = new Set(["015_failure_after_partial_success_leaves_changes"]);

type Tree = Record<string, string | { dir: true }>;

function readTree(root: string): Tree {
  const tree: Tree = {};
  if (!existsSync(root)) return tree;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      const rel = relative(root, abs).split("\\").join("/");
      if (statSync(abs).isDirectory()) {
        tree[rel] = { dir: true };
        walk(abs);
      } else tree[rel] = readFileSync(abs, "latin1");
    }
  };
  walk(root);
  return tree;
}

function filesOf(tree: Tree): Map<string, string> {
  const map = new Map<string, string>();
  for (const [path, entry] of Object.entries(tree)) {
    if (typeof entry === "string") map.set(path, Buffer.from(entry, "latin1").toString("utf8"));
  }
  return map;
}

function scenarios(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort();
}

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function defineScenarios(title: string, dir: string): void {
  describe(title, () => {
    for (const name of scenarios(dir)) {
      const scenario = join(dir, name);
      const patch = readFileSync(join(scenario, "patch.txt"), "utf8");
      const input = readTree(join(scenario, "input"));
      const expected = ATOMIC_INSTEAD.has(name) ? input : readTree(join(scenario, "expected"));

      it(`${name} (directory)`, async () => {
        const work = mkdtempSync(join(tmpdir(), "lathe-conformance-"));
        temps.push(work);
        if (existsSync(join(scenario, "input"))) cpSync(join(scenario, "input"), work, { recursive: true });
        const outcome = await applyPatch(patch, work).then(
          () => "applied",
          (error: Error) => error.name,
        );
        expect(readTree(work)).toEqual(expected);
        if (ATOMIC_INSTEAD.has(name)) expect(outcome).toBe("PatchApplyError");
      });

      it(`${name} (in-memory map)`, async () => {
        const files = filesOf(input);
        await applyPatch(patch, files).catch(() => undefined);
        expect(Object.fromEntries(files)).toEqual(Object.fromEntries(filesOf(expected)));
      });
    }
  });
}

describe("conformance folders", () => {
  it("has the package's own scenarios", () => {
    expect(scenarios(ownDir).length).toBeGreaterThanOrEqual(20);
  });

  it.runIf(existsSync(upstreamDir))("has all 25 upstream scenarios when the shared folder is present", () => {
    expect(scenarios(upstreamDir)).toHaveLength(25);
  });
});

defineScenarios("own apply_patch scenarios", ownDir);
if (existsSync(upstreamDir)) defineScenarios("Codex upstream apply_patch scenarios", upstreamDir);
