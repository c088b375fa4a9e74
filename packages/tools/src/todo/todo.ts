import { Todo } from "@lathe/message";
import { z } from "zod";
import { defineTool, type Tool } from "../tool.js";
import { describeTodos, todoStore } from "./todo-list.js";
import readDescription from "./todoread.txt?raw";
import writeDescription from "./todowrite.txt?raw";

const TodoInput = Todo.extend({
  id: z.string().optional().describe("A stable id of the item (numbered when missing)"),
  content: z.string().min(1).describe("What to do"),
  priority: Todo.shape.priority.default("medium"),
});

const TodoWriteParameters = z.object({
  todos: z.array(TodoInput).describe("The complete, updated todo list"),
});

/** Metadata of the todo tools: the list after the call. */
export interface TodoMetadata extends Record<string, unknown> {
  todos: Todo[];
}

/** Creates the `todowrite` tool. */
export function createTodoWriteTool(): Tool<typeof TodoWriteParameters, TodoMetadata> {
  return defineTool({
    name: "todowrite",
    description: writeDescription,
    parameters: TodoWriteParameters,
    async execute(args, ctx) {
      const todos: Todo[] = args.todos.map((t, i) => ({ id: t.id ?? String(i + 1), content: t.content, status: t.status, priority: t.priority ?? "medium" }));
      await todoStore(ctx).set(todos);
      ctx.emit({ type: "todo.updated", todos });
      return { ...describeTodos(todos), metadata: { todos } };
    },
  });
}

/** Creates the `todoread` tool. */
export function createTodoReadTool(): Tool<z.ZodObject<{}>, TodoMetadata> {
  return defineTool({
    name: "todoread",
    description: readDescription,
    parameters: z.object({}),
    readOnly: true,
    async execute(_args, ctx) {
      const todos = await todoStore(ctx).get();
      return { ...describeTodos(todos), metadata: { todos } };
    },
  });
}

/** The `todowrite` tool. */
export const todoWriteTool = createTodoWriteTool();
/** The `todoread` tool. */
export const todoReadTool = createTodoReadTool();
