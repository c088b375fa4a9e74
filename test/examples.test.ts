import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

// The examples import the built packages (dist/), as a user's program would; `npm test` builds first.
describe("examples", () => {
  it("examples/basic.ts runs a session end to end", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["examples/basic.ts"], { cwd: root, timeout: 30_000 });
    expect(stdout).toContain("[tool read_file: greeting.txt]");
    expect(stdout).toContain("The file says: Hello from the workspace!");
    expect(stdout).toContain("finish: stop");
  });
});
