import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { mockModel, type MockModel } from "@lathe/mock";
import { startHttpTestServer, type HttpTestServer } from "./http-test-server.js";
import { mcpTools, type McpToolSource } from "./mcp-tool-source.js";
import { everythingServer } from "./test-helpers.js";

let source: McpToolSource;
let http: HttpTestServer;

beforeAll(async () => {
  http = await startHttpTestServer();
  source = mcpTools({ servers: { everything: everythingServer(), remote: { url: http.url } } });
});

afterAll(async () => {
  await source.close();
  await http.stop();
});

/** The tool result the model received on its second call, as the AI SDK passed it. */
function toolResultSeen(model: MockModel): unknown {
  const prompt = model.calls[1]?.prompt ?? [];
  const toolMessage = prompt.find((message) => message.role === "tool");
  return toolMessage?.content[0];
}

describe("MCP tools in an agent (mock model)", () => {
  it("a stdio MCP tool's result reaches the model, which was offered the server's schema", async () => {
    const model = mockModel([{ toolCalls: [{ name: "everything_echo", input: { message: "hi" } }] }, { text: "done" }]);
    const agent = createAgent({ model, tools: await source.tools() });
    const session = await agent.sessions.create();
    const { info, parts } = await agent.prompt(session.id, "echo hi");
    expect(info.finish).toBe("stop");
    const tool = parts.find((part) => part.type === "tool");
    expect(tool?.type === "tool" && tool.state).toMatchObject({ status: "completed", output: "Echo: hi" });
    expect(toolResultSeen(model)).toMatchObject({ type: "tool-result", toolName: "everything_echo", output: { type: "text", value: "Echo: hi" } });
    const offered = model.calls[0]?.tools?.find((t) => t.name === "everything_echo");
    expect(offered).toMatchObject({ inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } });
    await agent.close();
  });

  it("an HTTP MCP tool's result reaches the model; an image comes as a file part", async () => {
    const model = mockModel([
      { toolCalls: [{ name: "remote_add", input: { a: 20, b: 22 } }] },
      { toolCalls: [{ name: "remote_picture", input: {} }] },
      { text: "done" },
    ]);
    const agent = createAgent({ model, tools: await source.tools() });
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "add and draw");
    expect(info.finish).toBe("stop");
    expect(toolResultSeen(model)).toMatchObject({ toolName: "remote_add", output: { type: "text", value: "42" } });
    const last = model.calls[2]?.prompt.filter((message) => message.role === "tool").at(-1)?.content[0];
    expect(last).toMatchObject({
      toolName: "remote_picture",
      output: { type: "content", value: expect.arrayContaining([expect.objectContaining({ type: "file", mediaType: "image/png" })]) },
    });
    await agent.close();
  });

  it("an error result reaches the model as the call's error, and the turn goes on", async () => {
    const model = mockModel([{ toolCalls: [{ name: "remote_fail", input: {} }] }, { text: "it failed" }]);
    const agent = createAgent({ model, tools: await source.tools() });
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "try");
    expect(info.finish).toBe("stop");
    expect(toolResultSeen(model)).toMatchObject({ output: { type: "error-text", value: "the widget is broken" } });
    await agent.close();
  });

  it("input that breaks the server's schema is refused by the loop before the tool runs", async () => {
    const model = mockModel([{ toolCalls: [{ name: "remote_add", input: { a: "one", b: 2 } }] }, { text: "sorry" }]);
    const before = http.calls.length;
    const agent = createAgent({ model, tools: await source.tools() });
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "add");
    expect(info.finish).toBe("stop");
    expect(toolResultSeen(model)).toMatchObject({ output: { type: "error-text", value: expect.stringMatching(/must be number/) } });
    expect(http.calls.length).toBe(before);
    await agent.close();
  });

  it("permission rules by tool name: { \"everything_*\": \"deny\" } keeps the server's tools from running", async () => {
    const before = http.calls.length;
    const model = mockModel([
      { toolCalls: [{ name: "everything_echo", input: { message: "hi" } }, { name: "remote_add", input: { a: 1, b: 1 } }] },
      { text: "ok" },
    ]);
    const agent = createAgent({ model, tools: await source.tools(), permission: { "everything_*": "deny" } });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "both");
    const states = Object.fromEntries(parts.flatMap((part) => (part.type === "tool" ? [[part.tool, part.state]] : [])));
    expect(states.everything_echo).toMatchObject({ status: "error" });
    expect(states.remote_add).toMatchObject({ status: "completed", output: "2" });
    expect(http.calls.slice(before)).toEqual(["add"]);
    await agent.close();
  });

  it("an ask rule for one server's tools goes to the host's approve callback under the tool's name", async () => {
    const asked: string[] = [];
    const model = mockModel([{ toolCalls: [{ name: "remote_add", input: { a: 1, b: 2 } }] }, { text: "ok" }]);
    const agent = createAgent({
      model,
      tools: await source.tools(),
      permission: { "remote_*": "ask" },
      approve: async (request) => {
        asked.push(`${request.permission}:${request.patterns.join()}`);
        return "reject";
      },
    });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "add");
    expect(asked).toEqual(["remote_add:*"]);
    const tool = parts.find((part) => part.type === "tool");
    expect(tool?.type === "tool" && tool.state.status).toBe("error");
    await agent.close();
  });
});

describe("closing with the agent", () => {
  it("agent.close() closes an MCP tool source given as a resource", async () => {
    const own = mcpTools({ servers: { everything: everythingServer() } });
    const agent = createAgent({ model: mockModel([]), tools: await own.tools(), resources: [own] });
    expect(own.status().everything?.state).toBe("connected");
    await agent.close();
    expect(own.status().everything?.state).toBe("closed");
  });
});
