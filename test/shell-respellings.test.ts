import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";

const ws = realpathSync(mkdtempSync(join(tmpdir(), "lathe-respell-")));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

// Each would delete its file if it ran: the same `rm`, spelled the ways a model might.
const RESPELLINGS = [
  "/bin/rm victim-1",
  "r\\m victim-2",
  "'rm' victim-3",
  "rm\tvictim-4",
  "command rm victim-5",
  "timeout 5 rm victim-6",
  "env rm victim-7",
  "bash -c 'rm victim-8'",
];

describe("a denied command respelled never runs (end to end)", () => {
  it("every respelling of `rm` is denied under `rm *: deny`, while other commands run", async () => {
    RESPELLINGS.forEach((_, i) => writeFileSync(join(ws, `victim-${i + 1}`), "still here"));
    const turns = [
      ...RESPELLINGS.map((command, i) => ({ toolCalls: [{ name: "bash", input: { command, description: `try ${i + 1}` } }] })),
      { toolCalls: [{ name: "bash", input: { command: "echo ran > proof.txt", description: "control" } }] },
      { text: "I could not delete anything." },
    ];
    const agent = createAgent({
      model: mockModel(turns),
      cwd: ws,
      permission: { bash: { "*": "allow", "rm *": "deny" }, edit: "allow" },
      approve: async () => "once",
    });
    const session = await agent.sessions.create();
    const { info, parts } = await agent.prompt(session.id, "delete the victims");
    expect(info.finish).toBe("stop");

    // The disk: every victim is still there, and the control command did run.
    RESPELLINGS.forEach((_, i) => expect(existsSync(join(ws, `victim-${i + 1}`)), RESPELLINGS[i]).toBe(true));
    expect(existsSync(join(ws, "proof.txt"))).toBe(true);

    const results = parts.filter((p) => p.type === "tool");
    expect(results).toHaveLength(RESPELLINGS.length + 1);
    for (const part of results.slice(0, RESPELLINGS.length)) {
      expect(part.type === "tool" && part.state.status).toBe("error");
      expect(part.type === "tool" && part.state.status === "error" && part.state.error).toContain('"rm *"');
    }
  });
});
