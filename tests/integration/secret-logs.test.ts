import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenceKeys, outboxEmails, products } from "~db/schema";
import { handleError } from "~/entry.server";
import { placeOrder } from "~/modules/orders/orders.server";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../support/database";
import { recordingLogger } from "../support/logger";
import { checkout, ordersTestContext } from "../support/orders";

// Issue 11: a database error during order placement logged the failed query with its parameters, a receipt with
// a plaintext licence key and the secret order link among them.
describe.each(drivers)("the log of a failed order placement on %s", (driver) => {
  let database: TestDatabase;
  let cipher: KeyCipher;
  beforeAll(async () => {
    ({ database, cipher } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database?.close();
  });

  it("holds no licence key, no secret link and no token", async () => {
    const log = recordingLogger();
    const ctx = { ...ordersTestContext(database.db, cipher), logger: log.logger };
    // The receipt (with the key and the order's secret link) cannot be written: the order placement fails in the
    // database, after the key was taken, inside its transaction.
    const refuse = `alter table outbox_emails add constraint test_refuse_mail check (kind <> 'payment-receipt') not valid`;
    if (database.pool) await database.pool.query(refuse);
    else await database.pglite!.query(refuse);
    let failure: unknown;
    try {
      await placeOrder(ctx, checkout({ paymentMethod: "sandbox" }));
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(Error);

    // What the error carries: this is what must not reach the log.
    const [norton] = await database.db
      .select()
      .from(products)
      .where(eq(products.groupKey, "Norton"))
      .limit(1);
    const keys = (
      await database.db.select().from(licenceKeys).where(eq(licenceKeys.productId, norton!.id))
    ).map((row) => cipher.decrypt(row.keyCiphertext));
    const carriedBy = (error: unknown) =>
      JSON.stringify((error as { params?: unknown }).params ?? "") +
      String(error) +
      String((error as { cause?: unknown }).cause ?? "");
    const linkPattern = /\/order\/[^\s"\\]+\?key=([A-Za-z0-9_-]+)/;
    // The outbox raises its own error for a refused e-mail: the body never leaves it.
    expect(keys.some((key) => carriedBy(failure).includes(key))).toBe(false);
    expect(linkPattern.exec(carriedBy(failure))).toBeNull();

    // The driver's own error for the same refused write does carry them: the logger must drop them too.
    let raw: unknown;
    try {
      await database.db.insert(outboxEmails).values({
        kind: "payment-receipt",
        to: "ada@example.com",
        subject: "Your keys",
        text: `Your key: ${keys[0]} - your order: http://127.0.0.1/order/1001?key=Zx9secretLinkKey_42`,
        html: "<p>receipt</p>",
      });
    } catch (error) {
      raw = error;
    }
    const carried = carriedBy(raw);
    const leakedKey = keys.find((key) => carried.includes(key));
    const link = linkPattern.exec(carried);
    // The test is only worth something if the error does carry them.
    expect(leakedKey).toBeDefined();
    expect(link).not.toBeNull();

    // Logged as a failing page action is (React Router's handleError), and as any module logs an error.
    handleError(failure, {
      request: new Request("http://127.0.0.1/payment?key=secret-link-key&token=reset-token", {
        method: "POST",
      }),
      params: {},
      context: { logger: log.logger },
    } as never);
    log.logger.error({ err: failure }, "order placement failed");
    log.logger.error({ err: raw }, "a raw driver error");
    log.logger.warn({ err: (raw as Error).message }, "a raw driver error, message only");
    log.logger.info(
      { order: { email: "ada@example.com", password: "hunter2-password", token: "tok-123456" } },
      "x",
    );

    const text = JSON.stringify(log.lines());
    expect(log.lines().filter((line) => line.level >= 40)).toHaveLength(4);
    expect(text).toContain("outbox_emails");
    expect(text).not.toContain(leakedKey!);
    expect(text).not.toContain(link![1]!);
    expect(text).not.toContain(link![0]);
    expect(text).not.toContain("secret-link-key");
    expect(text).not.toContain("reset-token");
    expect(text).not.toContain("hunter2-password");
    expect(text).not.toContain("tok-123456");
    for (const key of keys) expect(text).not.toContain(key);
  });
});
