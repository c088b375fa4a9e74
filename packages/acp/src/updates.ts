import type { ContentBlock, PlanEntry, SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentEvent } from "@lathe/core";
import type { MessageWithParts, Part, Todo } from "@lathe/message";
import { toolCallProgress, toolCallStart } from "./tool-calls.js";

/**
 * Turns the agent's events for one ACP session into `session/update`s as they happen: the
 * assistant's words and reasoning as chunks (only what is new since the last update of a part), each
 * tool call announced once and then updated when its status changes, the todo list as a plan, and
 * mode changes. Events of other sessions — subagents' own work included — are left out: the editor
 * sees a subagent as the `task` call that started it.
 */
export class LiveUpdates {
  private readonly roles = new Map<string, "user" | "assistant">();
  private readonly sent = new Map<string, number>();
  private readonly calls = new Map<string, string>();

  constructor(
    private readonly sessionID: string,
    private readonly cwd: string,
  ) {}

  /** The updates an event makes, in order (often none). */
  updates(event: AgentEvent): SessionUpdate[] {
    if (event.sessionID !== this.sessionID) return [];
    switch (event.type) {
      case "message.updated":
        this.roles.set(event.message.id, event.message.role);
        return [];
      case "message.part.updated":
        return this.partUpdates(event.part);
      case "todo.updated":
        return [planUpdate(event.todos)];
      case "session.mode":
        return [{ sessionUpdate: "current_mode_update", currentModeId: event.mode }];
      default:
        return [];
    }
  }

  private partUpdates(part: Part): SessionUpdate[] {
    // The user's own prompt is on the editor's screen already.
    if (this.roles.get(part.messageID) !== "assistant") return [];
    if (part.type === "text" || part.type === "reasoning") {
      if (part.type === "text" && part.ignored) return [];
      const from = this.sent.get(part.id) ?? 0;
      if (part.text.length <= from) return [];
      this.sent.set(part.id, part.text.length);
      const content: ContentBlock = { type: "text", text: part.text.slice(from) };
      return [{ sessionUpdate: part.type === "text" ? "agent_message_chunk" : "agent_thought_chunk", content, messageId: part.messageID }];
    }
    if (part.type === "tool") {
      const seen = this.calls.get(part.callID);
      const key = `${part.state.status}:${"title" in part.state ? (part.state.title ?? "") : ""}`;
      if (seen === key) return [];
      this.calls.set(part.callID, key);
      if (seen === undefined) return [{ sessionUpdate: "tool_call", ...toolCallStart(part, this.cwd) }];
      return [{ sessionUpdate: "tool_call_update", ...toolCallProgress(part, this.cwd) }];
    }
    return [];
  }
}

/** The session's todo list as an ACP plan (cancelled items are no longer part of the plan). */
export function planUpdate(todos: Todo[]): SessionUpdate {
  const entries: PlanEntry[] = todos
    .filter((todo) => todo.status !== "cancelled")
    .map((todo) => ({ content: todo.content, priority: todo.priority, status: todo.status as PlanEntry["status"] }));
  return { sessionUpdate: "plan", entries };
}

/**
 * A stored session as the updates that show it (`session/load`): the user's words, the assistant's
 * words and reasoning, every tool call in its final state, and the todo list last.
 */
export function historyUpdates(messages: MessageWithParts[], cwd: string, todos: Todo[] | undefined): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  for (const { info, parts } of messages) {
    for (const part of parts) {
      if (info.role === "user") {
        const content = userContent(part);
        if (content) out.push({ sessionUpdate: "user_message_chunk", content, messageId: info.id });
        continue;
      }
      if (part.type === "text" && !part.ignored && part.text) {
        out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: part.text }, messageId: info.id });
      } else if (part.type === "reasoning" && part.text) {
        out.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: part.text }, messageId: info.id });
      } else if (part.type === "tool") {
        out.push({ sessionUpdate: "tool_call", ...toolCallStart(part, cwd) });
      }
    }
  }
  if (todos && todos.length > 0) out.push(planUpdate(todos));
  return out;
}

function userContent(part: Part): ContentBlock | undefined {
  if (part.type === "text") return part.synthetic || part.ignored || !part.text ? undefined : { type: "text", text: part.text };
  if (part.type !== "file") return undefined;
  const image = /^data:(image\/[\w.+-]+);base64,(.*)$/s.exec(part.url);
  if (image) return { type: "image", mimeType: image[1]!, data: image[2]! };
  const name = part.filename ?? part.source?.path ?? part.url;
  return part.url.startsWith("data:") ? { type: "text", text: `[${name}]` } : { type: "resource_link", name, uri: part.url, mimeType: part.mime };
}
