import { runStorageConformance } from "@lathe/storage/conformance";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { PostgresStorage } from "./postgres-storage.js";
import { startTestPostgres, type TestPostgres } from "./test-server.js";

let server: TestPostgres;
let admin: pg.Pool;
let schemas = 0;
let schema = "";

beforeAll(async () => {
  server = await startTestPostgres();
  admin = new pg.Pool({ connectionString: server.connectionString });
});

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

runStorageConformance("PostgresStorage", {
  create: async () => {
    schema = `conformance_${++schemas}`;
    return new PostgresStorage({ connectionString: server.connectionString, schema });
  },
  reopen: async () => new PostgresStorage({ connectionString: server.connectionString, schema }),
  cleanup: async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  },
});

runStorageConformance("PostgresStorage (host's pool)", {
  create: async () => {
    schema = `pooled_${++schemas}`;
    return new PostgresStorage({ pool: admin, schema });
  },
  cleanup: async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  },
});
