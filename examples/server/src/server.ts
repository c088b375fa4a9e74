import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Agent } from "@lathe/core";
import type { TurnQueue } from "@lathe/queue";
import type { Storage } from "@lathe/storage";
import { createApp, type AppOptions } from "./app.ts";

/** A running HTTP server of an agent's sessions. */
export interface RunningServer {
  /** `http://host:port`. */
  url: string;
  port: number;
  /** Stops accepting requests, ends open streams, and waits for the server to close (the agent stays open). */
  close(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** The agent to serve: build it with the model and storage you want (a `mockModel` in tests). */
  agent: Agent;
  /** Worker mode: prompts go to this queue's workers (see `createApp`). */
  queue?: TurnQueue;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default all interfaces. */
  hostname?: string;
  /** A folder of static files to serve at `/` besides the API (see {@link AppOptions.staticRoot}). */
  staticRoot?: string;
}

/** Serves `createApp({ agent })` over Node's HTTP server. */
export function startServer(options: StartServerOptions): Promise<RunningServer> {
  const app = createApp({
    agent: options.agent,
    ...(options.staticRoot ? { staticRoot: options.staticRoot } : {}),
    ...(options.queue ? { queue: options.queue } : {}),
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 8787, hostname: options.hostname }, () => {
      const { port } = server.address() as AddressInfo;
      const host = !options.hostname || options.hostname === "0.0.0.0" ? "localhost" : options.hostname;
      resolve({
        url: `http://${host}:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Server-sent-event streams stay open until their client leaves: end them.
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
  });
}

/** On Ctrl+C or SIGTERM: stop serving, close the agent, the queue (in worker mode) and the storage, exit. */
export function stopOnSignals(server: RunningServer, agent: Agent, storage: Storage, queue?: TurnQueue): void {
  const stop = async () => {
    await server.close();
    await agent.close();
    await queue?.close();
    await storage.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}
