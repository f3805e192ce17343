import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~db/client.server";
import { rateLimits } from "~db/schema";
import { createTestDatabase, drivers, type TestDatabase } from "../../tests/support/database";
import { clearExpiredLimits, consumeLimits, type Limit, waitText } from "./rate-limit.server";

let counter = 0;
/** A limit of its own for each test, so tests do not count each other's attempts. */
const freshLimit = (points: number, seconds = 600): Limit => ({
  name: `test-${++counter}`,
  points,
  seconds,
});

describe.each(drivers)("attempt limits kept in the database, on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database.close();
  });

  it("allows the limit's attempts, then refuses with how long to wait, per key", async () => {
    const limit = freshLimit(3, 15 * 60);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await consumeLimits(database.db, [{ limit, key: "a@example.com" }])).toEqual({ ok: true });
    }
    const refused = await consumeLimits(database.db, [{ limit, key: "a@example.com" }]);
    expect(refused).toMatchObject({
      ok: false,
      message: "Too many attempts. Please wait 15 minutes and try again.",
    });
    expect(await consumeLimits(database.db, [{ limit, key: "b@example.com" }])).toEqual({ ok: true });
  });

  it("refuses when any of several checks is over its limit", async () => {
    const perClient = freshLimit(5);
    const perEmail = freshLimit(2);
    const attempt = (client: string) =>
      consumeLimits(database.db, [
        { limit: perClient, key: client },
        { limit: perEmail, key: "victim@example.com" },
      ]);
    expect((await attempt("10.0.0.1")).ok).toBe(true);
    expect((await attempt("10.0.0.2")).ok).toBe(true);
    // A new client address for every guess: the per-e-mail count still catches it.
    expect((await attempt("10.0.0.3")).ok).toBe(false);
  });

  it("counts simultaneous attempts exactly: no more get through than the limit", async () => {
    const limit = freshLimit(10);
    const results = await Promise.all(
      Array.from({ length: 40 }, () => consumeLimits(database.db, [{ limit, key: "burst" }])),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(10);
    const [row] = await database.db
      .select()
      .from(rateLimits)
      .where(sql`${rateLimits.key} like ${`${limit.name}:%`}`);
    expect(row!.points).toBeGreaterThanOrEqual(20);
  });

  it("starts counting again once the window is over", async () => {
    const limit = freshLimit(2);
    expect((await consumeLimits(database.db, [{ limit, key: "k" }])).ok).toBe(true);
    expect((await consumeLimits(database.db, [{ limit, key: "k" }])).ok).toBe(true);
    expect((await consumeLimits(database.db, [{ limit, key: "k" }])).ok).toBe(false);
    await database.db
      .update(rateLimits)
      .set({ expire: sql`now() - interval '1 second'` })
      .where(sql`${rateLimits.key} like ${`${limit.name}:%`}`);
    expect((await consumeLimits(database.db, [{ limit, key: "k" }])).ok).toBe(true);
  });

  it("keeps no client or e-mail address in the table", async () => {
    const limit = freshLimit(5);
    await consumeLimits(database.db, [{ limit, key: "private@example.com" }]);
    const rows = await database.db.select({ key: rateLimits.key }).from(rateLimits);
    expect(rows.some((row) => row.key.includes("private"))).toBe(false);
  });

  if (driver === "postgres") {
    it("is shared by several server processes on one database", async () => {
      const limit = freshLimit(10);
      const others = await Promise.all([1, 2, 3].map(() => openDatabase({ url: database.url! })));
      try {
        const results = await Promise.all(
          [database, ...others].flatMap((handle) =>
            Array.from({ length: 10 }, () => consumeLimits(handle.db, [{ limit, key: "shared" }])),
          ),
        );
        expect(results.filter((result) => result.ok)).toHaveLength(10);
      } finally {
        await Promise.all(others.map((handle) => handle.close()));
      }
    });
  }

  it("clears the counts whose window ended an hour ago or more, and keeps every other", async () => {
    const limit = freshLimit(2, 60);
    for (const key of ["stale@example.com", "fresh@example.com"])
      expect(await consumeLimits(database.db, [{ limit, key }])).toEqual({ ok: true });
    const keys = async () =>
      (await database.db.select({ key: rateLimits.key }).from(rateLimits))
        .map((row) => row.key)
        .filter((key) => key.startsWith(`${limit.name}:`));
    expect(await keys()).toHaveLength(2);
    // One count's window (a minute) ended two hours ago; the other's ends in a minute.
    const [stale] = await keys();
    await database.db
      .update(rateLimits)
      .set({ expire: sql`now() - interval '2 hours'` })
      .where(sql`${rateLimits.key} = ${stale!}`);
    expect(await clearExpiredLimits(database.db)).toBeGreaterThanOrEqual(1);
    expect(await keys()).toHaveLength(1);
    expect(await keys()).not.toContain(stale);
    // An hour from now the other's window has ended, but not yet for an hour: it is kept.
    await clearExpiredLimits(database.db, new Date(Date.now() + 60 * 60_000));
    expect(await keys()).toHaveLength(1);
  });
});

describe("how long to wait, in words", () => {
  it("says minutes and hours as a person would", () => {
    expect(waitText(5)).toBe("a minute");
    expect(waitText(60)).toBe("a minute");
    expect(waitText(61)).toBe("2 minutes");
    expect(waitText(15 * 60)).toBe("15 minutes");
    expect(waitText(3600)).toBe("an hour");
    expect(waitText(3 * 3600)).toBe("3 hours");
  });
});
