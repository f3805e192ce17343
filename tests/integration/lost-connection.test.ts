import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~db/client.server";
import { createTestDatabase, type TestDatabase } from "../support/database";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A connection the database drops while a transaction holds it (a restart, an outage, an administrator's
// pg_terminate_backend) must fail that transaction, not end the process: pg raises an error event on the client,
// which nothing listened to while the pool had lent it out. Vitest reports such an uncaught error as a failed run.
describe.skipIf(!process.env.TEST_DATABASE_URL)("a connection lost in the middle of a transaction", () => {
  let direct: TestDatabase;
  let app: DatabaseHandle;
  let admin: pg.Client;
  beforeAll(async () => {
    direct = await createTestDatabase("postgres");
    app = await openDatabase({ url: direct.url! });
    admin = new pg.Client({ connectionString: direct.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await app?.close();
    await direct?.close();
  });

  it("fails the transaction, keeps the process, and the next query works on a new connection", async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      const transaction = app.db.transaction(async (tx) => {
        const result = await tx.execute(sql`select pg_backend_pid() as pid`);
        const pid = Number((result as { rows: { pid: number }[] }).rows[0]!.pid);
        await admin.query("select pg_terminate_backend($1)", [pid]);
        // The connection is gone while the transaction holds it and runs no query.
        await sleep(300);
        await tx.execute(sql`select 1`);
      });
      await expect(transaction).rejects.toThrow();
      await sleep(100);
      expect(uncaught).toEqual([]);
      const after = await app.db.execute(sql`select 1 as one`);
      expect((after as { rows: { one: number }[] }).rows[0]!.one).toBe(1);
    } finally {
      process.off("uncaughtException", record);
    }
  });
});
