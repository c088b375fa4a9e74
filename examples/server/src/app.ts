// The HTTP surface of a Lathe agent: sessions, prompts whose events stream as server-sent events,
// approvals answered from any request, abort, fork, revert. Built with Hono; `main.ts` serves it.
import { Hono, type Context } from "hono";
import { streamSSE } from "hono/streaming";
import { serveStatic } from "@hono/node-server/serve-static";
import { z } from "zod";
import { BadRequestError, readBody } from "./body.ts";
import { addChatRoutes } from "./chat-routes.ts";
import {
  InvalidInputError,
  NotFoundError,
  SessionBusyError,
  SessionNotFoundError,
  type Agent,
  type AgentEvent,
} from "@lathe/core";
import type { TurnQueue } from "@lathe/queue";
import { streamQueuedEvents, streamQueuedPrompt } from "./queue-routes.ts";

const CreateSession = z.object({ title: z.string().optional(), metadata: z.record(z.string(), z.unknown()).optional() });
const Prompt = z.object({ text: z.string().min(1), agent: z.string().optional(), system: z.string().optional() });
const Reply = z.union([z.enum(["once", "always", "reject"]), z.object({ reject: z.string().min(1) })]);
const Fork = z.object({ messageID: z.string().optional() });
const Revert = z.object({ messageID: z.string(), partID: z.string().optional() });
const ListQuery = z.object({ limit: z.coerce.number().int().positive().max(500).optional(), cursor: z.string().optional() });

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The agent whose sessions the service exposes. */
  agent: Agent;
  /**
   * Worker mode: prompts are enqueued for worker processes instead of run here, and event streams
   * read the session's event log (give the agent `handOffReply: queue.handOffReply`, so answered
   * approvals resume on a worker).
   */
  queue?: TurnQueue;
  /** A folder of static files served at `/` after the API routes (a built browser app, as examples/web's). */
  staticRoot?: string;
}

/** One server-sent event per agent event, named by its type. */
const sse = (event: AgentEvent) => ({ event: event.type, data: JSON.stringify(event) });

/** Builds the service. Every error becomes a JSON `{ error: { name, message } }` with a fitting status. */
export function createApp({ agent, staticRoot, queue }: AppOptions): Hono {
  const app = new Hono();

  const session = async (c: Context) => {
    const found = await agent.sessions.get(c.req.param("id")!);
    if (!found) throw new SessionNotFoundError(c.req.param("id")!);
    return found;
  };

  app.onError((error, c) => {
    const status =
      error instanceof BadRequestError || error instanceof InvalidInputError
        ? 400
        : error instanceof SessionNotFoundError || error instanceof NotFoundError
          ? 404
          : error instanceof SessionBusyError
            ? 409
            : 500;
    return c.json({ error: { name: error.name, message: error.message } }, status);
  });

  app.get("/health", (c) => c.json({ ok: true }));

  addChatRoutes(app, agent);

  app.post("/sessions", async (c) => c.json(await agent.sessions.create(await readBody(c, CreateSession)), 201));

  app.get("/sessions", async (c) => {
    const query = ListQuery.safeParse(c.req.query());
    if (!query.success) throw new BadRequestError(z.prettifyError(query.error));
    return c.json(await agent.sessions.list(query.data));
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
  // final message. The run goes on if the client disconnects: its events stay in storage, approvals
  // can still be answered, and GET /sessions/:id/events follows the session live.
  app.post("/sessions/:id/prompt", async (c) => {
    const { id } = await session(c);
    const input = await readBody(c, Prompt);
    if (queue) return streamQueuedPrompt(c, queue, agent, id, input);
    const run = agent.prompt(id, input.text, { agent: input.agent, system: input.system });
    return streamSSE(c, async (stream) => {
      for await (const event of run) {
        if (stream.aborted) break;
        await stream.writeSSE(sse(event));
      }
      if (stream.aborted) return;
      try {
        const result = await run;
        await stream.writeSSE({ event: "done", data: JSON.stringify(result) });
      } catch (error) {
        await stream.writeSSE({ event: "failed", data: JSON.stringify({ name: (error as Error).name, message: (error as Error).message }) });
      }
    });
  });

  // Every event of one session as it happens, whoever started the run — until the client leaves.
  app.get("/sessions/:id/events", async (c) => {
    const { id } = await session(c);
    if (queue) return streamQueuedEvents(c, queue, id);
    return streamSSE(c, async (stream) => {
      const queue: AgentEvent[] = [];
      let wake: (() => void) | undefined;
      const listener = (event: AgentEvent) => {
        if (event.sessionID !== id) return;
        queue.push(event);
        wake?.();
      };
      agent.on("*", listener);
      stream.onAbort(() => wake?.());
      try {
        await stream.writeSSE({ event: "ready", data: JSON.stringify({ sessionID: id }) });
        while (!stream.aborted) {
          const event = queue.shift();
          if (event) await stream.writeSSE(sse(event));
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        agent.off("*", listener);
      }
    });
  });

  app.get("/sessions/:id/permissions", async (c) => {
    const { id } = await session(c);
    return c.json(await agent.permissions.pending(id));
  });

  app.post("/permissions/:requestID", async (c) => {
    const { reply } = await readBody(c, z.object({ reply: Reply }));
    await agent.permissions.reply(c.req.param("requestID"), reply);
    return c.body(null, 204);
  });

  app.post("/sessions/:id/abort", async (c) => {
    const { id } = await session(c);
    if (queue) {
      await queue.abort(id, "aborted by an HTTP request");
      return c.json({ aborted: true });
    }
    return c.json({ aborted: agent.abort(id, "aborted by an HTTP request") });
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
