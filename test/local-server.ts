import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// The local HTTP server under the fake provider APIs of the tests (and benchmarks): a free port on
// 127.0.0.1, each request's body read whole before the handler answers.

/** A running local server: its base URL (ending in `/v1`, as provider packages expect) and how to stop it. */
export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `handle` on a free local port; it gets each request's body as text. */
export async function serveLocally(handle: (body: string, res: ServerResponse) => Promise<void> | void): Promise<LocalServer> {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => handle(await readBody(req), res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}
