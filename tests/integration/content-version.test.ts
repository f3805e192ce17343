import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~db/client.server";
import { licenceKeys, products, settings } from "~db/schema";
import {
  type ContentVersion,
  HEARD_WITHIN_MS,
  startContentVersion,
} from "~/modules/content/content-version.server";
import { createTestDatabase, drivers, type TestDatabase } from "../support/database";
import { seedDemo } from "../support/seed";
import { recordingLogger } from "../support/logger";

/**
 * Every table, as public (a public page shows what it holds: writing it must change the content version) or private
 * (nothing a visitor sees). A table added later fails the first test until it is placed here, and a public one
 * needs the trigger of migration 0015.
 */
const PUBLIC_TABLES = [
  "banners",
  "blog_posts",
  "brand_content",
  "brand_groups",
  "company_details",
  "licence_keys",
  "pages",
  "product_metadata",
  // Reviews: an approved one shows on its product's page and cards; a pending one announces nothing.
  "product_reviews",
  "product_variants",
  "products",
  "seo_records",
  "services",
  "settings",
  "web_info",
];
const PRIVATE_TABLES = [
  "account",
  "addresses",
  "audit_log",
  "contact_messages",
  "document_counters",
  "invoices",
  // A customer's reports of keys that do not work: shown only on their own, private page.
  "licence_key_reports",
  "limits",
  "order_events",
  "order_lines",
  "order_notes",
  "order_refunds",
  "order_shipments",
  "orders",
  "outbox_emails",
  "payment_events",
  "promotions",
  "quote_requests",
  "rate_limit",
  "rate_limits",
  // Renewal reminders written and customers who said no to them: e-mails and the customer's own pages only.
  "renewal_reminder_opt_outs",
  "renewal_reminders",
  // A signed-in customer's cart as their browser last sent it, and who said no to its reminder: e-mails only.
  "saved_cart_opt_outs",
  "saved_carts",
  "scheduled_jobs",
  // Written only by triggers of products and brand_groups, which announce the change themselves.
  "search_index_changes",
  "search_index_version",
  "session",
  // Visitors waiting for a product to be back: e-mails only (the stock itself announces its changes).
  "stock_alerts",
  "storage_objects",
  "tax_rules",
  "user",
  "verification",
];

const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.each(drivers)("the content version (%s)", (driver) => {
  let database: TestDatabase;
  let version: ContentVersion;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
    version = await startContentVersion(database, recordingLogger().logger);
  });
  afterAll(async () => {
    await version?.close();
    await database?.close();
  });

  it("knows every table as public or private, and every public one announces its changes", async () => {
    const result = await database.db.execute(sql`
      select c.relname as name,
        exists (
          select 1 from pg_trigger t join pg_proc p on p.oid = t.tgfoid
          where t.tgrelid = c.oid and p.proname = 'notify_content_change'
        ) as announces
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' order by 1`);
    const tables = (result as unknown as { rows: Array<{ name: string; announces: boolean }> }).rows;
    const names = tables.map((table) => table.name).filter((name) => !name.startsWith("__drizzle"));
    expect(names.filter((name) => !PUBLIC_TABLES.includes(name) && !PRIVATE_TABLES.includes(name))).toEqual(
      [],
    );
    expect(tables.filter((t) => t.announces).map((t) => t.name)).toEqual(PUBLIC_TABLES);
  });

  it("changes once a write to a public table commits, never for a rolled-back one or a private table", async () => {
    const before = version.current();
    await database.db.insert(settings).values({ key: "cv-test", value: 1 });
    await waitFor(() => version.current() > before);
    const afterInsert = version.current();
    await database.db.update(settings).set({ value: 2 }).where(eq(settings.key, "cv-test"));
    await waitFor(() => version.current() > afterInsert);

    const afterCommit = version.current();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(settings).set({ value: 1 }).where(eq(settings.key, "nothing"));
        await tx.insert(settings).values({ key: "rolled-back", value: true });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await database.db.execute(sql`insert into scheduled_jobs (name, last_run_at) values ('cv-test', now())`);
    // Nothing may arrive for either. Notifications arrive in commit order: once a later public write's has arrived,
    // one sent for either would have too.
    await database.db.insert(settings).values({ key: "cv-after", value: true });
    await waitFor(() => version.current() > afterCommit);
    expect(version.current()).toBe(afterCommit + 1);
    expect(version.live()).toBe(true);
  });

  it("counts a committed write at once once caught up after it, without waiting for the notification", async () => {
    for (let n = 0; n < 5; n++) {
      const before = version.current();
      await database.db.insert(settings).values({ key: `cv-catch-up-${n}`, value: n });
      version.wrote();
      expect(version.behind()).toBe(true);
      await version.catchUp();
      expect(version.behind()).toBe(false);
      expect(version.current()).toBeGreaterThan(before);
    }
    // Nothing written since: nothing to wait for.
    await version.catchUp();
    expect(version.behind()).toBe(false);
  });
});

describe.each(drivers)("a product's availability (%s)", (driver) => {
  let database: TestDatabase;
  let version: ContentVersion;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db);
    version = await startContentVersion(database, recordingLogger().logger);
  });
  afterAll(async () => {
    await version?.close();
    await database?.close();
  });

  /** Runs a write and says whether what was read from `tags` before it is still fresh after it. */
  const freshAfter = async (tags: string[], write: () => Promise<unknown>) => {
    const mark = version.mark();
    await write();
    version.wrote();
    await version.catchUp();
    return version.fresh(mark, tags);
  };
  const product = async (section: "printer" | "antivirus") => {
    const result = await database.db.execute(sql`
      select p.id, p.stock from products p join brand_groups b on b.key = p.group_key
      where b.section = ${section} order by p.id limit 2`);
    return (result as unknown as { rows: Array<{ id: number; stock: number | null }> }).rows;
  };

  it("moves a stock count's tags, and a card's only when what it shows changes, never the store-wide version", async () => {
    const [printer, other] = await product("printer");
    await database.db.update(products).set({ stock: 20 }).where(eq(products.id, printer!.id));
    const before = version.current();
    const setStock = (stock: number) => () =>
      database.db.update(products).set({ stock }).where(eq(products.id, printer!.id));
    expect(await freshAfter([`stock:${printer!.id}`], setStock(19))).toBe(false);
    expect(await freshAfter([`card:${printer!.id}`, `stock:${other!.id}`], setStock(18))).toBe(true);
    // Low (5 or fewer) is what a card shows: reaching it, and every change while low.
    expect(await freshAfter([`card:${printer!.id}`], setStock(5))).toBe(false);
    expect(await freshAfter([`card:${printer!.id}`], setStock(4))).toBe(false);
    expect(version.current()).toBe(before);
    // Anything else about a product may show anywhere.
    expect(
      await freshAfter([], () =>
        database.db.update(products).set({ name: "Renamed" }).where(eq(products.id, printer!.id)),
      ),
    ).toBe(false);
    expect(version.current()).toBeGreaterThan(before);
  });

  it("moves a key pool's product tag when keys are added or taken, not its card's", async () => {
    const [software] = await product("antivirus");
    const [key] = await database.db
      .select({ id: licenceKeys.id })
      .from(licenceKeys)
      .where(eq(licenceKeys.productId, software!.id))
      .limit(1);
    const before = version.current();
    expect(
      await freshAfter([`card:${software!.id}`], () =>
        database.db.delete(licenceKeys).where(eq(licenceKeys.id, key!.id)),
      ),
    ).toBe(true);
    expect(
      await freshAfter([`stock:${software!.id}`], () =>
        database.db.execute(sql`delete from licence_keys where product_id = ${software!.id}`),
      ),
    ).toBe(false);
    expect(version.current()).toBe(before);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("the content version on PostgreSQL", () => {
  let database: TestDatabase;
  let version: ContentVersion;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    version = await startContentVersion(database, recordingLogger().logger);
  });
  afterAll(async () => {
    await version?.close();
    await database?.close();
  });

  it("reaches another process's handle", async () => {
    const other: DatabaseHandle = await openDatabase({ url: database.url! });
    const otherVersion = await startContentVersion(other, recordingLogger().logger);
    try {
      const before = otherVersion.current();
      await database.db.insert(settings).values({ key: "cv-other", value: true });
      await waitFor(() => otherVersion.current() > before);
    } finally {
      await otherVersion.close();
      await other.close();
    }
  });

  it(`asks to catch up once it has not confirmed for ${HEARD_WITHIN_MS} ms, and asking starts the round trip`, async () => {
    await version.catchUp();
    expect(version.unconfirmed()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, HEARD_WITHIN_MS + 20));
    // Past the bound: a kept page may not be served before a round trip. Asking starts one.
    expect(version.unconfirmed()).toBe(true);
    await waitFor(() => !version.unconfirmed());
  });
});

it("on the embedded database, never asks to confirm what it hears", async () => {
  const database = await createTestDatabase("pglite");
  const version = await startContentVersion(database, recordingLogger().logger);
  try {
    await new Promise((resolve) => setTimeout(resolve, HEARD_WITHIN_MS + 20));
    expect(version.unconfirmed()).toBe(false);
  } finally {
    await version.close();
    await database.close();
  }
});
