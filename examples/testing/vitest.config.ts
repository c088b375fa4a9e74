import { defineConfig } from "vitest/config";

// Standalone: `npm test` here runs these tests against the built @lathe packages, as in a project of
// your own. The repository's suite also runs them (test/examples-testing.test.ts).
export default defineConfig({ test: { include: ["src/**/*.test.ts"], testTimeout: 20_000 } });
