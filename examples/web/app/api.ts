// The calls the app makes besides the chat stream: examples/server's JSON routes, each with the
// page's token. Failures become errors whose message a person can act on.
import type { LatheUIDataTypes, LatheUIMessage } from "@lathe/core";
import { authHeaders } from "./auth.ts";

/** What a session is doing now, as the server reports it. */
export type SessionStatus = "idle" | "working" | "waiting";

/** A session as the list shows it. */
export interface SessionSummary {
  id: string;
  title: string;
  time: { created: number; updated: number };
  revert?: { messageID: string; diff?: string };
  /** Cost so far and what prompt caching saved, in US dollars. */
  usage?: { cost: number; cacheSaved?: number };
  /** Absent from servers that do not report it: then taken as idle. */
  status?: SessionStatus;
  /** Prompts waiting for a turn of their own (sent with "queue" while a turn ran), oldest first. */
  queue?: QueuedPrompt[];
}

/** A prompt stored on the session's queue until its turn starts (Lathe's `Session.queue` entries). */
export interface QueuedPrompt {
  id: string;
  input: { type: string; text?: string }[];
}

/** How a message typed while the agent works reaches it: into the running turn, or a turn after it. */
export type WhileBusy = "steer" | "queue";

/** What examples/server did with a message sent while the session works (POST /chat/:id/messages). */
export interface BusyMessageReply {
  /** `turn`: the session had finished meanwhile, so the message started a turn of its own. */
  delivery: WhileBusy | "turn";
  messageID?: string;
  queuedID?: string;
  /** Worker mode: the job that carries the message to the worker running the session. */
  jobID?: string;
}

/** One answer to an approval request. */
export interface ApprovalAnswer {
  id: string;
  approved: boolean;
  /** With a rejection: what the model is told instead of the tool's output. */
  reason?: string;
  /** With an approval: allow requests like this one from now on. */
  always?: boolean;
}

/** The server could not be reached at all (stopped, restarting, network gone). */
export class ServerUnreachableError extends Error {
  override name = "ServerUnreachableError";
  constructor() {
    super("Can't reach the Lathe server. Check that it is still running, then retry.");
  }
}

/** The server answered with an error status. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const UNAUTHORIZED =
  "The server did not accept this page's key. Open the address the server printed when it started (it ends in #token=…).";

/** The message of examples/server's JSON error body, or the body itself. */
function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message;
  } catch {
    // not JSON: the text is the message
  }
  return body.trim();
}

/** A sentence for any error the app meets, from a fetch, the chat stream or the server. */
export function describeError(error: unknown): string {
  if (error instanceof ServerUnreachableError || error instanceof ApiError) return error.message;
  if (isUnreachable(error)) return new ServerUnreachableError().message;
  const text = error instanceof Error ? error.message : String(error);
  if (/\b401\b|unauthori[sz]ed/i.test(text)) return UNAUTHORIZED;
  return messageOf(text) || "Something went wrong.";
}

/** Whether an error says the request never reached the server (what browsers throw for it). */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ServerUnreachableError) return true;
  if (!(error instanceof TypeError)) return false;
  const text = error.message.toLowerCase();
  return text.includes("fetch") || text.includes("network") || text === "load failed";
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  // Every POST carries a JSON body, even an empty one: the server refuses any other kind.
  const json = body ?? (method === "GET" ? undefined : {});
  try {
    response = await fetch(path, {
      method,
      headers: { ...authHeaders(), ...(json === undefined ? {} : { "content-type": "application/json" }) },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  } catch (error) {
    throw isUnreachable(error) ? new ServerUnreachableError() : error;
  }
  if (response.status === 401) throw new ApiError(UNAUTHORIZED, 401);
  if (!response.ok) {
    const text = messageOf(await response.text().catch(() => ""));
    throw new ApiError(text || `The server answered ${response.status}.`, response.status);
  }
  return (response.status === 204 ? undefined : await response.json()) as T;
}

export const api = {
  sessions: () => call<{ sessions: SessionSummary[] }>("GET", "/sessions?limit=50").then((r) => r.sessions),
  /** No title: the server names the session after its first prompt. */
  createSession: () => call<SessionSummary>("POST", "/sessions", {}),
  session: (id: string) => call<{ session: SessionSummary; busy: boolean }>("GET", `/sessions/${id}`),
  messages: (id: string) => call<LatheUIMessage[]>("GET", `/chat/${id}/messages`),
  /** The session's approval requests that wait for an answer, with what they ask (an edit's diff). */
  pending: (id: string) => call<LatheUIDataTypes["permission"][]>("GET", `/sessions/${id}/permissions`),
  /** A message typed while the session works; resolves once the server stored it. */
  sendWhileBusy: (id: string, text: string, whileBusy: WhileBusy) => call<BusyMessageReply>("POST", `/chat/${id}/messages`, { text, whileBusy }),
  answer: (id: string, approvals: ApprovalAnswer[]) => call<unknown>("POST", `/chat/${id}/approvals`, { approvals }),
  abort: (id: string) => call<{ aborted: boolean }>("POST", `/sessions/${id}/abort`),
  revert: (id: string, messageID: string) => call<SessionSummary>("POST", `/sessions/${id}/revert`, { messageID }),
  unrevert: (id: string) => call<SessionSummary>("POST", `/sessions/${id}/unrevert`),
};
