import { createId } from "@lathe/message";
import { hostname } from "node:os";
import { expect } from "vitest";
import type { LeaseProcess } from "./lease-process.js";

/**
 * Two processes ask for one session's lease at the same moment, several times over: exactly one
 * wins each time, the other cannot take or renew it, and after release the other gets it.
 */
export async function raceForLeases(a: LeaseProcess, b: LeaseProcess, rounds = 5): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const sessionID = createId("session");
    const [leaseA, leaseB] = await Promise.all([a.acquireLease(sessionID, "A", 30_000), b.acquireLease(sessionID, "B", 30_000)]);
    expect([leaseA, leaseB].filter((l) => l !== undefined)).toHaveLength(1);
    const [winner, loser, loserName] = leaseA ? ([a, b, "B"] as const) : ([b, a, "A"] as const);
    const winnerName = loserName === "A" ? "B" : "A";
    expect(await loser.acquireLease(sessionID, loserName, 30_000)).toBeUndefined();
    expect(await loser.renewLease(sessionID, loserName, 30_000)).toBeUndefined();
    await loser.releaseLease(sessionID, loserName);
    expect(await winner.renewLease(sessionID, winnerName, 30_000)).toMatchObject({ owner: winnerName });
    await winner.releaseLease(sessionID, winnerName);
    expect(await loser.acquireLease(sessionID, loserName, 30_000)).toMatchObject({ sessionID, owner: loserName });
    expect(await winner.acquireLease(sessionID, winnerName, 30_000)).toBeUndefined();
  }
}

/**
 * A process killed (SIGKILL) while holding a lease on this host does not block: the lease names the
 * holder's host and pid, and another process takes it over at once, long before it would expire.
 * While the holder lives, the other process sees who holds it and until when.
 */
export async function killedHolderIsTakenOver(holder: LeaseProcess, other: LeaseProcess): Promise<void> {
  const sessionID = createId("session");
  const taken = await holder.acquireLease(sessionID, "holder", 60_000);
  expect(taken).toMatchObject({ owner: "holder", pid: holder.pid, host: hostname() });
  expect(await other.acquireLease(sessionID, "other", 60_000)).toBeUndefined();
  expect(await other.getLease(sessionID)).toMatchObject({ owner: "holder", pid: holder.pid, host: hostname(), expiresAt: taken!.expiresAt });
  process.kill(holder.pid, "SIGKILL");
  await holder.close();
  const started = Date.now();
  expect(await other.acquireLease(sessionID, "other", 60_000)).toMatchObject({ owner: "other", pid: other.pid, host: hostname() });
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(await other.getLease(sessionID)).toMatchObject({ owner: "other", pid: other.pid });
}
