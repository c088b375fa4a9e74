// What webfetch may reach. Rules are matched on one spelling of each URL, so `http://2130706433/`,
// `http://0x7f.1/` and `http://[::ffff:127.0.0.1]/` all meet a rule written for `http://127.0.0.1*`;
// and, unless the host says otherwise, addresses on the host's own networks — loopback, private,
// link-local, cloud metadata — are refused after DNS resolution, on every redirect hop.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { WebFetchError } from "../errors.js";

/**
 * Which non-public addresses webfetch may reach: `true` any, `false` none (the default), or a list
 * of addresses and CIDR ranges (`"127.0.0.1"`, `"10.0.0.0/8"`, `"::1"`).
 */
export type AllowedAddresses = boolean | readonly string[];

/**
 * The one spelling of a URL that rules are matched on and that is fetched: IPv4 in dotted decimal
 * (whatever spelling it came in: decimal, octal, hex, short forms), an IPv4-mapped IPv6 host as the
 * IPv4 address, the host in lower case without trailing dots, no default port, no user name or
 * password, no fragment.
 */
export function normalizeUrl(url: URL): URL {
  // The WHATWG parser already settles case, default ports and IPv4 spellings.
  const normal = new URL(url.href);
  normal.username = "";
  normal.password = "";
  normal.hash = "";
  const mapped = mappedIpv4(normal.hostname);
  if (mapped) normal.hostname = mapped;
  else if (!normal.hostname.startsWith("[")) normal.hostname = normal.hostname.replace(/\.+$/, "");
  return normal;
}

/** `a.b.c.d` for an IPv4-mapped IPv6 host (`[::ffff:7f00:1]`), else undefined. */
function mappedIpv4(hostname: string): string | undefined {
  const match = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/i.exec(hostname);
  if (!match) return undefined;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

// Ranges that are not the public internet. IPv4-mapped IPv6 addresses are checked against the
// IPv4 ranges by BlockList itself.
const RANGES: ReadonlyArray<readonly [string, number, "ipv4" | "ipv6", string]> = [
  ["0.0.0.0", 8, "ipv4", "unspecified"],
  ["10.0.0.0", 8, "ipv4", "private"],
  ["100.64.0.0", 10, "ipv4", "shared (carrier-grade NAT) or metadata"],
  ["127.0.0.0", 8, "ipv4", "loopback"],
  ["169.254.0.0", 16, "ipv4", "link-local or cloud metadata"],
  ["172.16.0.0", 12, "ipv4", "private"],
  ["192.0.0.0", 24, "ipv4", "protocol assignments or metadata"],
  ["192.168.0.0", 16, "ipv4", "private"],
  ["198.18.0.0", 15, "ipv4", "benchmarking"],
  ["224.0.0.0", 4, "ipv4", "multicast"],
  ["240.0.0.0", 4, "ipv4", "reserved or broadcast"],
  ["168.63.129.16", 32, "ipv4", "cloud metadata"],
  ["::", 96, "ipv6", "unspecified, loopback or IPv4-compatible"],
  ["64:ff9b::", 96, "ipv6", "IPv4 translation"],
  ["fc00::", 7, "ipv6", "private (unique local) or cloud metadata"],
  ["fe80::", 10, "ipv6", "link-local"],
  ["ff00::", 8, "ipv6", "multicast"],
];

const CLASSIFIED = RANGES.map(([network, prefix, type, reason]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return { list, reason };
});

/** Why `address` is not public (e.g. `loopback`), or undefined for a public address. */
export function nonPublicReason(address: string): string | undefined {
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  return CLASSIFIED.find(({ list }) => list.check(address, family))?.reason;
}

/** A check of resolved addresses against the host's {@link AllowedAddresses}. */
export class AddressPolicy {
  private readonly allowAll: boolean;
  private readonly allowed = new BlockList();

  constructor(allow: AllowedAddresses = false) {
    this.allowAll = allow === true;
    if (Array.isArray(allow)) {
      for (const entry of allow as readonly string[]) {
        const [address, bits] = entry.split("/");
        const type = isIP(address!) === 6 ? "ipv6" : "ipv4";
        if (!isIP(address!)) throw new TypeError(`webfetch allowPrivateAddresses: ${JSON.stringify(entry)} is not an IP address or CIDR range`);
        if (bits === undefined) this.allowed.addAddress(address!, type);
        else this.allowed.addSubnet(address!, Number(bits), type);
      }
    }
  }

  /** Why `address` may not be fetched, or undefined when it may. */
  refusal(address: string): string | undefined {
    if (this.allowAll) return undefined;
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (this.allowed.check(address, family)) return undefined;
    return nonPublicReason(address);
  }

  /**
   * Resolves the URL's host (an IP literal stands for itself) and throws {@link WebFetchError} when
   * any of its addresses may not be fetched. Nothing is sent before this check.
   */
  async check(url: URL): Promise<void> {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const addresses = isIP(host)
      ? [host]
      : await lookup(host, { all: true, verbatim: true }).then(
          (found) => found.map((a) => a.address),
          (error: NodeJS.ErrnoException) => {
            throw new WebFetchError(url.href, `Fetching ${url.href} failed: cannot resolve ${host} (${error.code ?? error.message}).`);
          },
        );
    for (const address of addresses) {
      const reason = this.refusal(address);
      if (reason) throw refused(url.href, host, address, reason);
    }
  }
}

/** The error for a refused address. */
export function refused(url: string, host: string, address: string, reason: string): WebFetchError {
  const where = host === address ? address : `${host} (${address})`;
  return new WebFetchError(
    url,
    `Refused to fetch ${url}: ${where} is a ${reason} address, not the public internet. The host can allow such addresses (webfetch option allowPrivateAddresses).`,
  );
}
