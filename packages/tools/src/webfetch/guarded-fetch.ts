// webfetch's own fetch: node:http(s) with the address check inside the connection's DNS lookup, so
// the address connected to is the address checked (a name that resolves to a public address for
// the check and to a private one for the connection — DNS rebinding — is still refused).
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { Readable } from "node:stream";
import { refused, type AddressPolicy } from "./url-policy.js";

/** The part of `fetch` webfetch uses: a GET with headers and a signal, redirects not followed. */
export type WebFetchFunction = (url: URL, init: { signal: AbortSignal; headers: Record<string, string>; redirect: "manual" }) => Promise<Response>;

const NULL_BODY = new Set([101, 204, 205, 304]);

/** A {@link WebFetchFunction} that connects only to addresses `policy` allows. */
export function guardedFetch(policy: AddressPolicy): WebFetchFunction {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const lookup: LookupFunction = (hostname, options, callback) => {
        dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
          if (error) return callback(error, "", 4);
          for (const { address } of found) {
            const reason = policy.refusal(address);
            if (reason) return callback(refused(url.href, hostname, address, reason), "", 4);
          }
          if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, found);
          callback(null, found[0]!.address, found[0]!.family);
        });
      };
      const client = url.protocol === "https:" ? https : http;
      // No compressed bodies: they would have to be inflated here; identity keeps the size cap exact.
      const request = client.request(url, { method: "GET", headers: { ...init.headers, "accept-encoding": "identity" }, lookup, signal: init.signal }, (res) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (Array.isArray(value)) for (const v of value) headers.append(name, v);
          else if (value !== undefined) headers.set(name, value);
        }
        const status = res.statusCode ?? 502;
        if (NULL_BODY.has(status)) res.resume();
        const body = NULL_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status: status < 200 || status > 599 ? 502 : status, statusText: res.statusMessage ?? "", headers }));
      });
      // An abort or timeout rejects with the signal's reason, as fetch does.
      request.on("error", (error) => reject(init.signal.aborted ? init.signal.reason : error));
      request.end();
    });
}
