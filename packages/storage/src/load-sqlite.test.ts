import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// In a fresh Node process each (Node emits the warning once per process): node:sqlite loads without
// its experimental warning reaching stderr, and other warnings, experimental ones included, still do.
const loader = fileURLToPath(new URL("./load-sqlite.ts", import.meta.url));

const stderrOf = (code: string) => spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" }).stderr;

describe("loadSqlite", () => {
  it("keeps Node's SQLite ExperimentalWarning off stderr, and only that warning", () => {
    const stderr = stderrOf(`
      const { loadSqlite } = await import(${JSON.stringify(loader)});
      const { DatabaseSync } = loadSqlite();
      new DatabaseSync(":memory:").close();
      process.emitWarning("another experiment", "ExperimentalWarning");
      process.emitWarning(new Error("an Error as a warning"));
      process.emitWarning("something else is off");
      await new Promise((resolve) => setTimeout(resolve, 50));
    `);
    expect(stderr).not.toMatch(/SQLite/);
    expect(stderr).toContain("ExperimentalWarning: another experiment");
    expect(stderr).toContain("an Error as a warning");
    expect(stderr).toContain("Warning: something else is off");
  });

  it("a plain load of node:sqlite in the same Node prints the warning (so the check above can fail)", () => {
    expect(stderrOf(`process.getBuiltinModule("node:sqlite"); await new Promise((resolve) => setTimeout(resolve, 50));`)).toMatch(
      /ExperimentalWarning: SQLite is an experimental feature/,
    );
  });
});
