// The history an agent keeps across turns must notice another agent's write (another process on the
// same storage) even when the agent itself writes the session record afterwards (a mode switch, a
// revert, a steered or queued message), which would otherwise make the record its own again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAgent, type Agent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { SqliteStorage } from "@lathe/storage";

const dir = mkdtempSync(join(tmpdir(), "lathe-foreign-write-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WRITES: [string, (agent: Agent, id: string) => Promise<unknown>][] = [
  ["a mode switch", (agent, id) => agent.sessions.setMode(id, "plan")],
  ["a revert undone", async (agent, id) => {
    const first = (await agent.sessions.messages(id))[0]!;
    await agent.sessions.revert(id, { messageID: first.info.id });
    return agent.sessions.unrevert(id);
  }],
];

describe("the kept history after another agent wrote the session", () => {
  it.each(WRITES)("is read again when the agent then writes the session itself (%s)", async (_name, write) => {
    const storage = new SqliteStorage(join(dir, `${Math.random().toString(36).slice(2)}.db`));
    const model = mockModel([{ text: "first answer" }, { text: "second answer" }]);
    const cwd = mkdtempSync(join(dir, "work-"));
    const agent = createAgent({ model, storage, cwd, dataDir: join(cwd, ".data") });
    const id = (await agent.sessions.create()).id;
    await agent.prompt(id, "one");
    const other = createAgent({ model: mockModel([{ text: "the other's answer" }]), storage, cwd, dataDir: join(cwd, ".data") });
    await other.prompt(id, "from the other process");
    await other.close();
    await write(agent, id);
    await agent.prompt(id, "two");
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("from the other process");
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("the other's answer");
    await agent.close();
  });
});
