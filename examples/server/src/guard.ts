// What keeps a web page the user happens to open from driving the service (the class of attack of
// OpenCode's CVE-2026-22812): a per-start token on every API route, the Host header checked against
// the names the server answers to (DNS rebinding), a foreign Origin refused, and JSON bodies only,
// so that no HTML form and no "simple" cross-site request can reach a route.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";

/** A request the guard refuses, with the HTTP status it answers with. */
export class RequestRefusedError extends Error {
  override readonly name = "RequestRefusedError";
  /** 401 no or wrong token, 403 a foreign Host or Origin, 415 a body that is not JSON. */
  readonly status: 401 | 403 | 415;

  constructor(message: string, status: 401 | 403 | 415) {
    super(message);
    this.status = status;
  }
}

/** A fresh random token: 32 bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Options of {@link guard}. */
export interface GuardOptions {
  /** The token every API request carries as `Authorization: Bearer <token>`. */
  token: string;
  /**
   * The `host[:port]` names requests may be addressed to; read on each request, since the port is
   * known only once the server listens.
   */
  allowedHosts: () => readonly string[];
  /** Whether a path is one of the API's (the static files of a page are served without the token). */
  isApi: (path: string) => boolean;
}

/** Hono middleware that refuses what {@link GuardOptions} does not allow; see the module comment. */
export function guard(options: GuardOptions): MiddlewareHandler {
  const expected = Buffer.from(options.token);
  return async (c, next) => {
    const hosts = options.allowedHosts();
    const host = c.req.header("host")?.toLowerCase();
    // DNS rebinding: a page of evil.example resolved to 127.0.0.1 still says `Host: evil.example`.
    if (!host || !hosts.includes(host)) throw new RequestRefusedError(`Requests to host ${JSON.stringify(host ?? "")} are refused.`, 403);
    if (!options.isApi(c.req.path)) return next();
    const origin = c.req.header("origin");
    // Browsers send Origin on cross-site requests (and on same-origin POSTs); only the server's own pages may call it.
    if (origin !== undefined && !hosts.some((allowed) => origin === `http://${allowed}` || origin === `https://${allowed}`)) {
      throw new RequestRefusedError(`Requests from origin ${JSON.stringify(origin)} are refused.`, 403);
    }
    if (!hasToken(c, expected)) throw new RequestRefusedError("This server needs its token: Authorization: Bearer <token> (printed when it started).", 401);
    if (c.req.method === "POST" && !isJson(c.req.header("content-type"))) {
      throw new RequestRefusedError("Request bodies must be JSON (Content-Type: application/json).", 415);
    }
    return next();
  };
}

function hasToken(c: Context, expected: Buffer): boolean {
  const match = /^Bearer (\S+)$/.exec(c.req.header("authorization") ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(";")[0]?.trim().toLowerCase() === "application/json";
}

/** The names a server listening on `hostname:port` answers to: loopback names, or the host's own list. */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}
