// The HTTP surface of a Lathe agent: sessions, prompts whose events stream as server-sent events,
// approvals answered from any request, abort, fork, revert. Built with Hono; `main.ts` serves it.
// Every API route sits behind the guard (token, Host, Origin, JSON only: see guard.ts); runs belong
// to the server, so a client that leaves never stops one — only POST /sessions/:id/abort does.
import { Hono, type Context } from "hono";
import { streamSSE } from "hono/streaming";
import { serveStatic } from "@hono/node-server/serve-static";
import { z } from "zod";
import { BadRequestError, readBody } from "./body.ts";
import { addChatRoutes } from "./chat-routes.ts";
import { InvalidInputError, NotFoundError, SessionBusyError, SessionNotFoundError, type Agent, type AgentEvent } from "@lathe/core";
import type { TurnQueue } from "@lathe/queue";
import { streamQueuedEvents, streamQueuedPrompt } from "./queue-routes.ts";
import { guard, RequestRefusedError } from "./guard.ts";
import { ForeignApprovalError, scopedPermissions } from "./approval-scope.ts";
import { resumeIfUnfinished } from "./resume-turns.ts";
import { listSessions } from "./session-status.ts";

const CreateSession = z.strictObject({ title: z.string().min(1).max(200).optional(), metadata: z.record(z.string(), z.unknown()).optional() });
// The server picks the agent and its system prompt: a client sends the text only.
const Prompt = z.strictObject({ text: z.string().min(1) });
const Reply = z.union([z.enum(["once", "always", "reject"]), z.strictObject({ reject: z.string().min(1) })]);
const Fork = z.strictObject({ messageID: z.string().optional() });
const Revert = z.strictObject({ messageID: z.string(), partID: z.string().optional() });
const ListQuery = z.object({ limit: z.coerce.number().int().positive().max(500).optional() });

/** The paths of the API (everything else is the page's static files, served without the token). */
const API_PATHS = /^\/(sessions|chat|api|permissions|health)(\/|$)/;

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The agent whose sessions the service exposes. */
  agent: Agent;
  /** The token every API request must carry (`Authorization: Bearer <token>`). */
  token: string;
  /** The `host:port` names requests may be addressed to (the Host header; DNS rebinding). Read per request. */
  allowedHosts: () => readonly string[];
  /**
   * Worker mode: prompts are enqueued for worker processes instead of run here, and event streams
   * read the session's event log (give the agent `handOffReply: queue.handOffReply`, so answered
   * approvals resume on a worker).
   */
  queue?: TurnQueue;
  /** A folder of static files served at `/` after the API routes (a built browser app, as examples/web's). */
  staticRoot?: string;
}

/** One server-sent event per agent event, named by its type, with its number in the session's log as id. */
const sse = (seq: number, event: AgentEvent) => ({ id: String(seq), event: event.type, data: JSON.stringify(event) });

/** The status each error answers with. */
function statusOf(error: Error): 400 | 401 | 403 | 404 | 409 | 415 | 500 {
  if (error instanceof RequestRefusedError) return error.status;
  if (error instanceof BadRequestError || error instanceof InvalidInputError) return 400;
  if (error instanceof ForeignApprovalError) return 403;
  if (error instanceof SessionNotFoundError || error instanceof NotFoundError) return 404;
  if (error instanceof SessionBusyError) return 409;
  return 500;
}

/** The client's event cursor: SSE's `Last-Event-ID` on a reconnect, or `?after=`; absent means from now on. */
export function eventCursor(c: Context): number | undefined {
  const cursor = c.req.header("Last-Event-ID") ?? c.req.query("after");
  if (cursor === undefined) return undefined;
  if (!/^\d{1,15}$/.test(cursor)) throw new BadRequestError("The event cursor (Last-Event-ID or ?after) is an event number.");
  return Number(cursor);
}

/** Builds the service. Every error becomes a JSON `{ error: { name, message } }` with a fitting status. */
export function createApp({ agent, staticRoot, queue, token, allowedHosts }: AppOptions): Hono {
  const app = new Hono();

  const session = async (c: Context) => {
    const found = await agent.sessions.get(c.req.param("id")!);
    if (!found) throw new SessionNotFoundError(c.req.param("id")!);
    return found;
  };
  /** After an answer: a turn no run of this process holds (left by a restart) goes on here. Workers take it in worker mode. */
  const afterReply = async (sessionID: string) => {
    if (!queue) await resumeIfUnfinished(agent, sessionID);
  };

  app.onError((error, c) => c.json({ error: { name: error.name, message: error.message } }, statusOf(error)));
  app.use("*", guard({ token, allowedHosts, isApi: (path) => API_PATHS.test(path) || !staticRoot }));

  app.get("/health", (c) => c.json({ ok: true }));

  addChatRoutes(app, { agent, afterReply, ...(queue ? { queue } : {}) });

  // No title: the agent's title generator names the session from its first prompt.
  app.post("/sessions", async (c) => c.json(await agent.sessions.create(await readBody(c, CreateSession)), 201));

  app.get("/sessions", async (c) => {
    const query = ListQuery.safeParse(c.req.query());
    if (!query.success) throw new BadRequestError(z.prettifyError(query.error));
    return c.json({ sessions: await listSessions(agent, queue !== undefined, query.data.limit) });
  });

  app.get("/sessions/:id", async (c) => {
    const found = await session(c);
    return c.json({ session: found, messages: await agent.sessions.messages(found.id), busy: agent.isBusy(found.id) });
  });

  app.delete("/sessions/:id", async (c) => {
    await agent.sessions.remove(c.req.param("id"));
    return c.body(null, 204);
  });

  // Answers a prompt; the response is the run's events as server-sent events, then `done` with the
  // final message. The run goes on if the client disconnects: its events stay in the session's log,
  // approvals can still be answered, and GET /sessions/:id/events follows the session live.
  app.post("/sessions/:id/prompt", async (c) => {
    const { id } = await session(c);
    const input = await readBody(c, Prompt);
    if (queue) return streamQueuedPrompt(c, queue, agent, id, input);
    const run = agent.prompt(id, input.text);
    return streamSSE(c, async (stream) => {
      for await (const event of run) {
        if (stream.aborted) return;
        await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
      }
      try {
        const result = await run;
        await stream.writeSSE({ event: "done", data: JSON.stringify(result) });
      } catch (error) {
        await stream.writeSSE({ event: "failed", data: JSON.stringify({ name: (error as Error).name, message: (error as Error).message }) });
      }
    });
  });

  // Every event of one session as it happens, whoever started the run, each with its number as the
  // SSE id: a client that reconnects with Last-Event-ID (EventSource does) gets what it missed first.
  app.get("/sessions/:id/events", async (c) => {
    const { id } = await session(c);
    const after = eventCursor(c);
    if (queue) return streamQueuedEvents(c, queue, id, after);
    return streamSSE(c, async (stream) => {
      const controller = new AbortController();
      stream.onAbort(() => controller.abort());
      await stream.writeSSE({ event: "ready", data: JSON.stringify({ sessionID: id }) });
      let written = 0;
      for await (const { seq, event } of agent.sessions.stream(id, { after: after ?? "now", signal: controller.signal })) {
        await stream.writeSSE(sse(seq, event));
        // A long replay gives the other requests their turn now and then.
        if (++written % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    });
  });

  app.get("/sessions/:id/permissions", async (c) => {
    const { id } = await session(c);
    return c.json(await scopedPermissions(agent, id).pending());
  });

  // Answers one of the session's requests (or of its subagent sessions); another session's is refused (403).
  app.post("/sessions/:id/permissions/:requestID", async (c) => {
    const { id } = await session(c);
    const { reply } = await readBody(c, z.strictObject({ reply: Reply }));
    await scopedPermissions(agent, id).reply(c.req.param("requestID"), reply);
    await afterReply(id);
    return c.body(null, 204);
  });

  app.post("/sessions/:id/abort", async (c) => {
    const { id } = await session(c);
    if (queue) {
      await queue.abort(id, "stopped by the user");
      return c.json({ aborted: true });
    }
    return c.json({ aborted: agent.abort(id, "stopped by the user") });
  });

  app.post("/sessions/:id/fork", async (c) => {
    const { id } = await session(c);
    return c.json(await agent.sessions.fork(id, await readBody(c, Fork)), 201);
  });

  app.post("/sessions/:id/revert", async (c) => {
    const { id } = await session(c);
    return c.json(await agent.sessions.revert(id, await readBody(c, Revert)));
  });

  app.post("/sessions/:id/unrevert", async (c) => {
    const { id } = await session(c);
    return c.json(await agent.sessions.unrevert(id));
  });

  app.get("/sessions/:id/diff", async (c) => {
    const { id } = await session(c);
    return c.json(await agent.sessions.diff(id, { messageID: c.req.query("messageID") }));
  });

  if (staticRoot) app.get("/*", serveStatic({ root: staticRoot }));

  return app;
}
