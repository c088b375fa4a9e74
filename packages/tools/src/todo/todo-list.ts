import type { Todo } from "@lathe/message";
import type { ToolContext } from "../tool.js";

const FALLBACK_KEY = "lathe.tools.todos";

/** The session's todo list: `ctx.todos` when the host stores it, else per-session state. */
export function todoStore(ctx: ToolContext): { get(): Promise<Todo[]>; set(todos: Todo[]): Promise<void> } {
  if (ctx.todos) return ctx.todos;
  const box = ctx.state(FALLBACK_KEY, () => ({ todos: [] as Todo[] }));
  return {
    get: async () => box.todos,
    set: async (todos) => {
      box.todos = todos;
    },
  };
}

/** The list as the model reads it, and the count of items still open for the title. */
export function describeTodos(todos: Todo[]): { title: string; output: string } {
  const open = todos.filter((t) => t.status === "pending" || t.status === "in_progress").length;
  return { title: `${open} open todo${open === 1 ? "" : "s"}`, output: JSON.stringify(todos, null, 2) };
}
