import { spawnLeaseProcess, raceForLeases, killedHolderIsTakenOver, type LeaseProcess } from "@lathe/storage/conformance";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "vitest";

const adapters = [
  { exportName: "SqliteStorage", location: (dir: string) => join(dir, "lathe.db") },
  { exportName: "FileStorage", location: (dir: string) => join(dir, "store") },
];

describe.each(adapters)("two processes sharing one $exportName", ({ exportName, location }) => {
  let dir: string;
  let processes: LeaseProcess[] = [];
  const open = async () => {
    const child = await spawnLeaseProcess({ module: "@lathe/storage", exportName, options: location(dir) });
    processes.push(child);
    return child;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "lathe-lease-processes-"));
  });

  afterEach(async () => {
    await Promise.all(processes.map((p) => p.close()));
    processes = [];
    await rm(dir, { recursive: true, force: true });
  });

  it("gives a session's lease to exactly one of two processes asking at once; after release the other gets it", async () => {
    const [a, b] = await Promise.all([open(), open()]);
    await raceForLeases(a, b);
  });

  it("lets another process take over at once the lease of a process killed while holding it", async () => {
    const [a, b] = await Promise.all([open(), open()]);
    await killedHolderIsTakenOver(a, b);
  });
});
