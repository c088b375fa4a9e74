// The host's unix sockets a sandboxed command must not reach. A read-only mount does not stop a
// connect(), so each socket file is covered instead. The kernel lists the bound sockets of this
// network namespace in /proc/net/unix; sockets bound elsewhere (a container's bind-mounted
// /var/run/docker.sock) are found by a shallow look through the usual places.
import { readdirSync, readFileSync, realpathSync, type Dirent } from "node:fs";
import path from "node:path";
import { isInside } from "../workspace-path.js";

/** Where sockets are looked for besides /proc/net/unix, and how deep. */
const USUAL_PLACES: readonly string[] = ["/var/run", "/var/lib", "/var/tmp", "/root", "/home", "/srv", "/opt", "/mnt", "/media"];
const SCAN_DEPTH = 3;
const SCAN_ENTRIES = 20_000;

/**
 * The real paths of host unix socket files outside `workspace` and outside the `masked` folders
 * (which the sandbox replaces wholesale), to cover in the sandbox.
 */
export function hostSocketMasks(workspace: string, masked: readonly string[]): string[] {
  const found = new Set<string>();
  for (const socket of [...boundSockets(), ...scanSockets()]) {
    let real: string;
    try {
      real = realpathSync(socket);
    } catch {
      continue; // gone, or its folder unreadable: nothing to bind over
    }
    if (isInside(workspace, real) || masked.some((dir) => isInside(dir, real))) continue;
    found.add(real);
  }
  return [...found].sort();
}

/** Paths of the unix sockets bound in this network namespace (abstract ones have no path). */
function boundSockets(): string[] {
  let table: string;
  try {
    table = readFileSync("/proc/net/unix", "utf8");
  } catch {
    return [];
  }
  const paths: string[] = [];
  for (const line of table.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    const name = fields[7];
    if (name && name.startsWith("/")) paths.push(name);
  }
  return paths;
}

/** Socket files in the usual places, a few levels deep, a bounded number of entries in all. */
function scanSockets(): string[] {
  const sockets: string[] = [];
  let budget = SCAN_ENTRIES;
  const visit = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (--budget < 0) return;
      const full = path.join(dir, entry.name);
      if (entry.isSocket()) sockets.push(full);
      else if (entry.isDirectory() && depth < SCAN_DEPTH) visit(full, depth + 1);
    }
  };
  for (const place of USUAL_PLACES) visit(place, 1);
  return sockets;
}
