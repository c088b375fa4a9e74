import { describe, expect, it } from "vitest";
import { testContext } from "../test-context.js";
import type { ToolContext } from "../tool.js";
import { todoReadTool, todoWriteTool } from "./todo.js";

describe("todowrite / todoread", () => {
  it("stores the list through ctx.todos, emits todo.updated and reads it back", async () => {
    const ctx = testContext("/tmp");
    const input = todoWriteTool.parameters.parse({
      todos: [
        { content: "Write the parser", status: "in_progress", priority: "high" },
        { id: "b", content: "Test it", status: "pending" },
      ],
    });
    const result = await todoWriteTool.execute(input, ctx);
    const expected = [
      { id: "1", content: "Write the parser", status: "in_progress", priority: "high" },
      { id: "b", content: "Test it", status: "pending", priority: "medium" },
    ];
    expect(ctx.stored.todos).toEqual(expected);
    expect(ctx.events).toEqual([{ type: "todo.updated", todos: expected }]);
    expect(result.title).toBe("2 open todos");
    expect(JSON.parse(result.output)).toEqual(expected);
    const read = await todoReadTool.execute({}, ctx);
    expect(read.metadata?.todos).toEqual(expected);
  });

  it("keeps the list in per-session state when the host gives no store", async () => {
    const ctx: ToolContext = { ...testContext("/tmp"), todos: undefined };
    await todoWriteTool.execute(todoWriteTool.parameters.parse({ todos: [{ content: "x", status: "completed" }] }), ctx);
    const read = await todoReadTool.execute({}, ctx);
    expect(read.metadata?.todos).toEqual([{ id: "1", content: "x", status: "completed", priority: "medium" }]);
    expect(read.title).toBe("0 open todos");
  });

  it("rejects bad statuses and empty content", () => {
    expect(todoWriteTool.parameters.safeParse({ todos: [{ content: "x", status: "done" }] }).success).toBe(false);
    expect(todoWriteTool.parameters.safeParse({ todos: [{ content: "", status: "pending" }] }).success).toBe(false);
  });
});
