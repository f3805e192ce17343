import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settings } from "~db/schema";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { type ContentVersion, startContentVersion } from "./content-version.server";
import { fromSnapshot, snapshotSize } from "./snapshot.server";

const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.each(drivers)("the public data snapshot (%s)", (driver) => {
  let database: TestDatabase;
  let contentVersion: ContentVersion;
  /** Reads the setting `key` from the database, counting the reads. */
  let reads = 0;
  const readSetting = async (key: string) => {
    reads += 1;
    const [row] = await database.db.select().from(settings).where(eq(settings.key, key));
    return row?.value ?? null;
  };
  const write = async (key: string, value: unknown) => {
    const before = contentVersion.current();
    await database.db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value } });
    // The database announces the commit; the version moves once it arrives.
    await waitFor(() => contentVersion.current() > before);
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    contentVersion = await startContentVersion(database, recordingLogger().logger);
  });
  afterAll(async () => {
    await contentVersion?.close();
    await database?.close();
  });

  it("reads the database once per version, and again after a write to a public table", async () => {
    await write("snap-a", "first");
    const context = { contentVersion };
    reads = 0;
    expect(await fromSnapshot(context, "a", () => readSetting("snap-a"))).toBe("first");
    expect(await fromSnapshot(context, "a", () => readSetting("snap-a"))).toBe("first");
    expect(reads).toBe(1);

    await write("snap-a", "second");
    expect(await fromSnapshot(context, "a", () => readSetting("snap-a"))).toBe("second");
    expect(reads).toBe(2);
  });

  it("shares one read between requests asking at once, and keeps no failed read", async () => {
    const context = { contentVersion };
    reads = 0;
    const values = await Promise.all(
      Array.from({ length: 5 }, () => fromSnapshot(context, "shared", () => readSetting("snap-a"))),
    );
    expect(values).toEqual(Array(5).fill("second"));
    expect(reads).toBe(1);

    await expect(
      fromSnapshot(context, "failing", () => database.db.execute("select * from no_such_table")),
    ).rejects.toThrow();
    expect(await fromSnapshot(context, "failing", () => readSetting("snap-a"))).toBe("second");
  });

  it("never serves a read that overlapped a change at the newer version", async () => {
    const context = { contentVersion };
    await write("snap-b", "old");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The read takes the old value, then waits while a change commits and is announced.
    const slow = fromSnapshot(context, "b", async () => {
      const value = await readSetting("snap-b");
      await gate;
      return value;
    });
    await write("snap-b", "new");
    release();
    expect(await slow).toBe("old");
    expect(await fromSnapshot(context, "b", () => readSetting("snap-b"))).toBe("new");
  });

  it("empties itself at a change and keeps nothing while changes cannot be heard", async () => {
    const context = { contentVersion };
    await fromSnapshot(context, "c", () => readSetting("snap-a"));
    expect(snapshotSize(contentVersion)).toBeGreaterThan(0);
    await write("snap-c", 1);
    expect(snapshotSize(contentVersion)).toBe(0);

    const other = await startContentVersion(database, recordingLogger().logger);
    await other.close();
    expect(other.live()).toBe(false);
    reads = 0;
    await fromSnapshot({ contentVersion: other }, "d", () => readSetting("snap-a"));
    await fromSnapshot({ contentVersion: other }, "d", () => readSetting("snap-a"));
    expect(reads).toBe(2);
    expect(snapshotSize(other)).toBe(0);
  });

  it("shows a write this process answered on its very next read, before the notification is heard", async () => {
    const context = { contentVersion };
    await write("snap-e", 0);
    for (let round = 1; round <= 20; round++) {
      expect(await fromSnapshot(context, "e", () => readSetting("snap-e"))).toBe(round - 1);
      // A write request answered here: the insert has committed, its notification may still be on its way.
      await database.db.update(settings).set({ value: round }).where(eq(settings.key, "snap-e"));
      contentVersion.wrote();
      expect(await fromSnapshot(context, "e", () => readSetting("snap-e"))).toBe(round);
    }
  });
});
