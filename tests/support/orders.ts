import { randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import type { Database } from "~db/client.server";
import type { Env } from "~/lib/env.server";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { type OrdersContext, placeOrder } from "~/modules/orders/orders.server";
import type { CheckoutInput } from "~/modules/orders/schemas";
import { createDemoDatabase, type Driver, type TestDatabase } from "./database";
import { recordingLogger } from "./logger";

export const testEnv = (overrides: Partial<Env> = {}): Env =>
  ({
    NODE_ENV: "test",
    PUBLIC_URL: "https://shop.example.com",
    AUTH_SECRET: "s".repeat(40),
    ENCRYPTION_KEY: "k".repeat(43),
    ...overrides,
  }) as Env;

export function ordersTestContext(db: Database, cipher: KeyCipher, env: Env = testEnv()): OrdersContext {
  return {
    db,
    env,
    cipher,
    logger: recordingLogger().logger,
    mailer: { kick() {} },
    storeName: "Test Store",
  };
}

/**
 * The demo store of a file's tests on one driver: a fresh demo database and an orders context on it, opened before
 * the file's tests (and handed to `opened`, ahead of the file's own set-up) and closed after them.
 */
export function useDemoStore(
  driver: Driver,
  opened: (store: { database: TestDatabase; ctx: OrdersContext }) => void,
) {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    const demo = await createDemoDatabase(driver);
    database = demo.database;
    opened({ database, ctx: ordersTestContext(database.db, demo.cipher) });
  });
  afterAll(async () => {
    await database?.close();
  });
}

/** A test order placed with `checkout(overrides)`: its answer, or the test fails with the refusal. */
export async function placeCheckout(ctx: OrdersContext, overrides: Partial<CheckoutInput> = {}) {
  const result = await placeOrder(ctx, checkout(overrides));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result;
}

export const address = {
  name: "Ada Lovelace",
  line1: "1 Example Street",
  line2: "",
  city: "New York",
  // No state: the demo store's New York sales tax applies only to addresses that name the state.
  region: "",
  postalCode: "10001",
  country: "US",
  phone: "",
};

export function checkout(overrides: Partial<CheckoutInput> = {}): CheckoutInput {
  return {
    idempotencyKey: randomUUID(),
    email: "ada@example.com",
    billing: address,
    shipToBilling: true,
    paymentMethod: "sandbox",
    cart: [{ groupKey: "Norton", id: "1", quantity: 1 }],
    acceptTerms: "on",
    discountCode: "",
    buyerTaxId: "",
    ...overrides,
  };
}
