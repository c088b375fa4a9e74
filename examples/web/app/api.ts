// The few calls the app makes besides the chat stream: examples/server's JSON routes.
import type { LatheUIMessage } from "@lathe/core";

/** A session as the list shows it. */
export interface SessionSummary {
  id: string;
  title: string;
  time: { created: number; updated: number };
  revert?: { messageID: string; diff?: string };
  /** Cost so far and what prompt caching saved, in US dollars. */
  usage?: { cost: number; cacheSaved?: number };
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

export const api = {
  sessions: () => call<{ sessions: SessionSummary[] }>("GET", "/sessions?limit=50").then((r) => r.sessions),
  createSession: () => call<SessionSummary>("POST", "/sessions", { title: "New chat" }),
  session: (id: string) => call<{ session: SessionSummary; busy: boolean }>("GET", `/sessions/${id}`),
  messages: (id: string) => call<LatheUIMessage[]>("GET", `/chat/${id}/messages`),
  approve: (id: string, approvalId: string, approved: boolean) =>
    call<unknown>("POST", `/chat/${id}/approvals`, { approvals: [{ id: approvalId, approved }] }),
  abort: (id: string) => call<{ aborted: boolean }>("POST", `/sessions/${id}/abort`),
  revert: (id: string, messageID: string) => call<SessionSummary>("POST", `/sessions/${id}/revert`, { messageID }),
  unrevert: (id: string) => call<SessionSummary>("POST", `/sessions/${id}/unrevert`),
};
