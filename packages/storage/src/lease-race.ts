import { createId } from "@lathe/message";
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

/** A process killed while holding a lease keeps others out until the lease expires, then lets them in. */
export async function leaseOutlivesKilledHolder(holder: LeaseProcess, other: LeaseProcess): Promise<void> {
  const sessionID = createId("session");
  expect(await holder.acquireLease(sessionID, "holder", 1_000)).toBeDefined();
  process.kill(holder.pid, "SIGKILL");
  await holder.close();
  expect(await other.acquireLease(sessionID, "other", 30_000)).toBeUndefined();
  await new Promise((resolve) => setTimeout(resolve, 1_300));
  expect(await other.acquireLease(sessionID, "other", 30_000)).toMatchObject({ owner: "other" });
}
