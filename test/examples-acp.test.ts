import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { createDemoWorkspace, DEMO_PROMPT } from "../examples/cli/src/demo.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

// examples/acp as an editor runs it: a child process speaking ACP on its stdin/stdout, driven by the
// SDK's own client. It imports the built packages (dist/), as a user's program would.
describe("examples/acp", () => {
  it("an editor launches it, runs the demo task with approvals in the editor, and loads the session after a restart", async () => {
    const cwd = createDemoWorkspace();
    const db = join(mkdtempSync(join(tmpdir(), "lathe-acp-example-")), "acp.db");
    const env = { ...process.env, LATHE_DB: db, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", LATHE_BASE_URL: "" };

    const launch = () => {
      const child = spawn(process.execPath, ["examples/acp/src/main.ts"], { cwd: root, env, stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const updates: acp.SessionNotification[] = [];
      const asked: string[] = [];
      const app = acp
        .client({ name: "test-editor" })
        .onNotification("session/update", ({ params }) => void updates.push(params))
        .onRequest("session/request_permission", ({ params }) => {
          asked.push(params.toolCall.kind ?? "other");
          return { outcome: { outcome: "selected", optionId: "once" } };
        });
      const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      return { child, connection, updates, asked, exited, stderr: () => stderr };
    };

    const first = launch();
    const init = await first.connection.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    expect(init.agentInfo?.title).toBe("Lathe");
    const { sessionId } = await first.connection.agent.request("session/new", { cwd, mcpServers: [] });
    const done = await first.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: DEMO_PROMPT }] });
    expect(done.stopReason).toBe("end_turn");
    expect(readFileSync(join(cwd, "src", "math.js"), "utf8")).toContain("return a + b;");
    expect(first.asked).toEqual(expect.arrayContaining(["edit", "execute"]));
    expect(first.updates.some((n) => n.update.sessionUpdate === "tool_call_update" && n.update.content?.some((c) => c.type === "diff"))).toBe(true);
    // The editor quits: it closes the agent's stdin, and the agent exits on its own.
    first.child.stdin.end();
    expect(await first.exited).toBe(0);

    const second = launch();
    await second.connection.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    await second.connection.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    expect(second.updates[0]?.update).toMatchObject({ sessionUpdate: "user_message_chunk", content: { text: DEMO_PROMPT } });
    expect(second.updates.filter((n) => n.update.sessionUpdate === "tool_call").length).toBeGreaterThanOrEqual(3);
    second.child.stdin.end();
    expect(await second.exited).toBe(0);
    expect(second.stderr()).not.toMatch(/ExperimentalWarning|Error/);
  }, 60_000);
});
