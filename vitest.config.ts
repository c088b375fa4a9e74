import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string, file = "index.ts") =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

// Tests run against the sources, so a change is tested without a rebuild;
// CI builds dist/ separately and the examples run against that.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@lathe\/storage\/conformance$/, replacement: src("storage", "conformance.ts") },
      ...["message", "patch", "permission", "storage-postgres", "storage", "tools", "mock", "core", "mcp", "lsp", "queue", "acp"].map(
        (pkg) => ({ find: new RegExp(`^@lathe/${pkg}$`), replacement: src(pkg) }),
      ),
    ],
  },
  test: {
    // Agents made without a dataDir keep snapshots and tool files under $XDG_DATA_HOME/lathe: give
    // each test run its own, so runs never share (or inherit locks from) the user's data.
    // Likewise the user's config directory, where skills and commands are looked for.
    env: { XDG_DATA_HOME: mkdtempSync(join(tmpdir(), "lathe-test-data-")), XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "lathe-test-config-")) },
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    typecheck: { enabled: true, include: ["packages/*/src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
