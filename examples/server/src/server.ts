import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Agent } from "@lathe/core";
import type { TurnQueue } from "@lathe/queue";
import type { Storage } from "@lathe/storage";
import { createApp } from "./app.ts";
import { loopbackHosts, newToken } from "./guard.ts";

/** A running HTTP server of an agent's sessions. */
export interface RunningServer {
  /** `http://host:port`. */
  url: string;
  port: number;
  /** The token every API request carries as `Authorization: Bearer <token>`. */
  token: string;
  /** The address to open in a browser: the page, with the token in the fragment (never sent to the server, kept out of logs). */
  pageUrl: string;
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
  /**
   * The interface to listen on; default `127.0.0.1` (this machine only). Listening anywhere else
   * exposes the agent — read docs/deployment.md first, and name the public host in `allowedHosts`.
   */
  hostname?: string;
  /** The API token; default a new random one per start. */
  token?: string;
  /**
   * `host:port` names requests may be addressed to besides the loopback ones (`127.0.0.1:PORT`,
   * `localhost:PORT`, `[::1]:PORT`): the name a proxy in front of the server is reached by.
   */
  allowedHosts?: string[];
  /** A folder of static files to serve at `/` besides the API (a built browser app). */
  staticRoot?: string;
}

/** Serves `createApp({ agent })` over Node's HTTP server. */
export function startServer(options: StartServerOptions): Promise<RunningServer> {
  const token = options.token ?? newToken();
  const hostname = options.hostname ?? "127.0.0.1";
  let hosts: string[] = [];
  const app = createApp({
    agent: options.agent,
    token,
    allowedHosts: () => hosts,
    ...(options.staticRoot ? { staticRoot: options.staticRoot } : {}),
    ...(options.queue ? { queue: options.queue } : {}),
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 8787, hostname }, () => {
      const { port } = server.address() as AddressInfo;
      const host = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname.includes(":") ? `[${hostname}]` : hostname;
      // The loopback names, the address it was told to listen on, and the host's own names.
      hosts = [...new Set([...loopbackHosts(port), `${host}:${port}`, ...(options.allowedHosts ?? [])].map((name) => name.toLowerCase()))];
      const url = `http://${host}:${port}`;
      resolve({
        url,
        port,
        token,
        pageUrl: `${url}/#token=${token}`,
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
