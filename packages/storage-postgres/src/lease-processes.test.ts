import { killedHolderIsTakenOver, raceForLeases, spawnLeaseProcess, type LeaseProcess } from "@lathe/storage/conformance";
import { afterAll, afterEach, beforeAll, describe, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "./test-server.js";

describe("two processes sharing one PostgresStorage", () => {
  let server: TestPostgres;
  let processes: LeaseProcess[] = [];
  let databases = 0;

  beforeAll(async () => {
    server = await startTestPostgres();
  });

  afterAll(async () => {
    await server?.stop();
  });

  afterEach(async () => {
    await Promise.all(processes.map((p) => p.close()));
    processes = [];
  });

  // Both open (and so migrate) a fresh schema at the same moment: the advisory lock makes that safe.
  const openPair = async () => {
    const options = { connectionString: server.connectionString, schema: `processes_${++databases}` };
    const spec = { module: "@lathe/storage-postgres", exportName: "PostgresStorage", options };
    processes = await Promise.all([spawnLeaseProcess(spec), spawnLeaseProcess(spec)]);
    return processes as [LeaseProcess, LeaseProcess];
  };

  it("gives a session's lease to exactly one of two processes asking at once; after release the other gets it", async () => {
    const [a, b] = await openPair();
    await raceForLeases(a, b, 10);
  });

  it("lets another process take over at once the lease of a process killed while holding it", async () => {
    const [a, b] = await openPair();
    await killedHolderIsTakenOver(a, b);
  });
});
