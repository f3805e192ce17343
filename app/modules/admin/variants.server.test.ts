import { and, asc, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, brandGroups, products, productVariants } from "~db/schema";
import type { Product } from "~db/schema/catalogue";
import { fieldErrors } from "~/lib/forms";
import { type ContentVersion, startContentVersion } from "~/modules/content/content-version.server";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { placeCheckout, useDemoStore } from "../../../tests/support/orders";
import type { OrdersContext } from "../orders/orders.server";
import { variantFormSchema } from "./schemas";
import {
  createVariant,
  deleteVariant,
  setVariantHidden,
  updateVariant,
  variantAction,
  variantsForEdit,
} from "./variants.server";

const ADMIN = "owner@example.com";
const form = (overrides: Record<string, string> = {}) =>
  variantFormSchema.parse({
    sku: "NT-TEST-1Y",
    label: "1 device, 1 year",
    price: "29.99",
    originalPrice: "39.99",
    termMonths: "12",
    ...overrides,
  });

/** A refused action's status and body (react-router's data()), or a redirect's status and address. */
function answer(response: unknown) {
  if (response instanceof Response)
    return { status: response.status, location: response.headers.get("Location") };
  const { data, init } = response as { data: Record<string, unknown>; init?: { status?: number } };
  return { status: init?.status ?? 200, ...data };
}

describe.each(drivers)("the admin's product variants on %s", (driver) => {
  let database: TestDatabase;
  let version: ContentVersion;
  let software: Product;
  let printer: Product;
  let bitdefender: Product;
  let ctx: OrdersContext;
  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    version = await startContentVersion(database, recordingLogger().logger);
    const first = async (where: ReturnType<typeof eq>) =>
      (
        await database.db
          .select({ product: products })
          .from(products)
          .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
          .where(where)
          .orderBy(asc(products.id))
          .limit(1)
      )[0]!.product;
    software = await first(eq(products.groupKey, "Norton"));
    printer = await first(eq(brandGroups.section, "printer"));
    bitdefender = (
      await database.db.select().from(products).where(eq(products.name, "Bitdefender Total Security"))
    )[0]!;
  });
  afterAll(async () => {
    await version?.close();
  });

  /** Runs a write and says whether the store-wide content version (every cached page) moved after it. */
  const invalidates = async <Result>(write: () => Promise<Result>) => {
    const before = version.current();
    const result = await write();
    version.wrote();
    await version.catchUp();
    return { result, moved: version.current() > before };
  };
  const variantsOf = (productId: number) =>
    database.db
      .select()
      .from(productVariants)
      .where(eq(productVariants.productId, productId))
      .orderBy(asc(productVariants.position));

  it("adds, edits and deletes a variant, each audited and each invalidating every cached page", async () => {
    const created = await invalidates(() => createVariant(database.db, software.id, form(), ADMIN));
    expect(created.moved).toBe(true);
    if (!created.result.ok) throw new Error(JSON.stringify(created.result));
    const createdId = created.result.id;
    const second = await createVariant(
      database.db,
      software.id,
      form({
        sku: "NT-TEST-PERPETUAL",
        label: "Lifetime",
        price: "59",
        originalPrice: "",
        inrPrice: "4999",
        termMonths: "",
      }),
      ADMIN,
    );
    expect(second.ok).toBe(true);
    expect(await variantsOf(software.id)).toMatchObject([
      {
        sku: "NT-TEST-1Y",
        priceCents: 2999,
        originalPriceCents: 3999,
        termMonths: 12,
        position: 0,
        hidden: false,
      },
      {
        sku: "NT-TEST-PERPETUAL",
        priceCents: 5900,
        originalPriceCents: 5900,
        inrPriceCents: 499_900,
        termMonths: null,
        position: 1,
      },
    ]);
    expect((await variantsForEdit(database.db, software.id))[1]!.values).toEqual({
      sku: "NT-TEST-PERPETUAL",
      label: "Lifetime",
      price: "59.00",
      originalPrice: "",
      inrPrice: "4999.00",
      stock: "",
      termMonths: "",
      hidden: "",
    });

    // Its own SKU in another case is still its own.
    const updated = await invalidates(() =>
      updateVariant(
        database.db,
        software.id,
        createdId,
        form({ sku: "nt-test-1y", price: "24.50", hidden: "on" }),
        ADMIN,
      ),
    );
    expect(updated).toEqual({ result: { ok: true, id: createdId }, moved: true });
    expect((await variantsOf(software.id))[0]).toMatchObject({
      sku: "nt-test-1y",
      priceCents: 2450,
      hidden: true,
    });

    const deleted = await invalidates(() => deleteVariant(database.db, software.id, createdId, ADMIN));
    expect(deleted).toEqual({ result: { ok: true }, moved: true });
    expect((await variantsOf(software.id)).map((variant) => variant.sku)).toEqual(["NT-TEST-PERPETUAL"]);

    const audit = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "product"), eq(auditLog.entityId, String(software.id))))
      .orderBy(asc(auditLog.id));
    expect(audit.map((entry) => [entry.action, entry.actor])).toEqual([
      ["variant.create", ADMIN],
      ["variant.create", ADMIN],
      ["variant.update", ADMIN],
      ["variant.delete", ADMIN],
    ]);
    expect(audit[2]).toMatchObject({ before: { priceCents: 2999 }, after: { priceCents: 2450 } });
  });

  it("refuses a SKU another product uses, in any case, naming that product; nothing is written", async () => {
    const before = await variantsOf(software.id);
    const taken = {
      ok: false,
      reason: "invalid",
      errors: { sku: "The SKU BD-TS-1D-1Y is already used by Bitdefender Total Security" },
    };
    expect(await createVariant(database.db, software.id, form({ sku: "bd-ts-1d-1y" }), ADMIN)).toEqual(taken);
    expect(
      await updateVariant(database.db, software.id, before[0]!.id, form({ sku: "BD-TS-1D-1Y" }), ADMIN),
    ).toEqual(taken);
    expect(await variantsOf(software.id)).toEqual(before);
  });

  it("counts stock only for printers and routers", async () => {
    expect(
      await createVariant(database.db, software.id, form({ sku: "NT-STOCK", stock: "5" }), ADMIN),
    ).toEqual({
      ok: false,
      reason: "invalid",
      errors: { stock: "Software counts its licence keys: leave the stock empty" },
    });
    const made = await createVariant(
      database.db,
      printer.id,
      form({ sku: "PRN-TEST-A", label: "Black", stock: "7", termMonths: "" }),
      ADMIN,
    );
    expect(made.ok).toBe(true);
    expect((await variantsOf(printer.id))[0]).toMatchObject({
      sku: "PRN-TEST-A",
      stock: 7,
      termMonths: null,
    });
  });

  it("refuses to delete a variant with licence keys, telling to hide it, with a 409 and never a 500", async () => {
    const [withKeys] = await variantsOf(bitdefender.id);
    const result = await deleteVariant(database.db, bitdefender.id, withKeys!.id, ADMIN);
    expect(result).toMatchObject({ ok: false, reason: "in-use" });
    expect(!result.ok && result.reason === "in-use" && result.message).toMatch(
      /^BD-TS-1D-1Y cannot be deleted: it has \d+ licence keys? on record\. Hide it instead/,
    );
    expect(
      answer(
        await variantAction(
          database.db,
          bitdefender.id,
          { intent: "variant-delete", id: String(withKeys!.id) },
          ADMIN,
        ),
      ),
    ).toMatchObject({ status: 409, ok: false, message: expect.stringContaining("Hide it instead") });
    expect((await variantsOf(bitdefender.id)).map((variant) => variant.id)).toContain(withKeys!.id);
    // Another product's variant is not this product's to delete.
    expect(await deleteVariant(database.db, software.id, withKeys!.id, ADMIN)).toEqual({
      ok: false,
      reason: "not-found",
    });
  });

  it("refuses to delete a variant that orders name, though it has no keys", async () => {
    const made = await createVariant(database.db, software.id, form({ sku: "NT-ORDERED" }), ADMIN);
    if (!made.ok) throw new Error(JSON.stringify(made));
    // No keys in its pool: the order waits for one, its line naming the variant.
    await placeCheckout(ctx, {
      cart: [{ groupKey: software.groupKey, id: software.externalId, quantity: 1, variant: "NT-ORDERED" }],
    });
    expect(await deleteVariant(database.db, software.id, made.id, ADMIN)).toEqual({
      ok: false,
      reason: "in-use",
      message:
        "NT-ORDERED cannot be deleted: it has 1 order line on record. Hide it instead: a hidden variant is no longer sold, nor shown.",
    });
    expect((await variantsOf(software.id)).map((variant) => variant.sku)).toContain("NT-ORDERED");
    // What it offers instead: hiding it, audited as a change of the variant.
    const hidden = await invalidates(() => setVariantHidden(database.db, software.id, made.id, true, ADMIN));
    expect(hidden).toEqual({ result: { ok: true, id: made.id }, moved: true });
    expect((await variantsOf(software.id)).find((variant) => variant.id === made.id)).toMatchObject({
      hidden: true,
    });
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(software.id)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({
      action: "variant.update",
      before: { hidden: false },
      after: { hidden: true },
    });
  });

  it("answers the Variants section's posts: a redirect with a notice, a 400 with a message per field, a 404", async () => {
    expect(
      answer(
        await variantAction(
          database.db,
          software.id,
          { intent: "variant-create", sku: "NT-ACTION", label: "Retail", price: "10", originalPrice: "" },
          ADMIN,
        ),
      ),
    ).toEqual({ status: 302, location: `/admin/products/${software.id}?done=variant-created#variants` });
    expect(
      answer(
        await variantAction(
          database.db,
          software.id,
          { intent: "variant-create", sku: "NT-ACTION", label: "Retail", price: "10" },
          ADMIN,
        ),
      ),
    ).toMatchObject({
      status: 400,
      errors: { sku: "The SKU NT-ACTION is already used by " + software.name },
      values: { sku: "NT-ACTION" },
    });
    expect(
      answer(
        await variantAction(
          database.db,
          software.id,
          { intent: "variant-update", id: "99999", sku: "X", label: "Y", price: "1" },
          ADMIN,
        ),
      ),
    ).toMatchObject({ status: 404 });
  });

  it("checks the form with a clear message beside each field", () => {
    const result = variantFormSchema.safeParse({
      sku: "BD TS/1".padEnd(65, "x"),
      label: " ",
      price: "-1",
      originalPrice: "1.999",
      termMonths: "121",
      stock: "1.5",
    });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual({
      sku: "At most 64 characters",
      label: "Enter the label, like 1 device, 1 year",
      price: "Enter the price like 49.99",
      originalPrice: "Enter the original price like 49.99",
      termMonths: "Enter a term from 1 to 120 months, or leave it empty for a perpetual licence",
      stock: "Enter a whole number of units from 0 to 9999999, or leave it empty",
    });
    const fieldMessage = (values: Record<string, string>, field: string) =>
      variantFormSchema
        .safeParse({ sku: "A-1", label: "L", price: "10", ...values })
        .error?.issues.find((issue) => issue.path[0] === field)?.message;
    expect(fieldMessage({ sku: "" }, "sku")).toBe("Enter the SKU");
    expect(fieldMessage({ sku: "BD_TS.1" }, "sku")).toBeUndefined();
    expect(fieldMessage({ sku: "-BD TS/1" }, "sku")).toBe(
      "Start with a letter or digit, then letters, digits, dots, underscores or dashes, like BD-TS-1D-1Y",
    );
    expect(fieldMessage({ originalPrice: "9.99" }, "originalPrice")).toBe(
      "The original price cannot be below the price",
    );
    expect(fieldMessage({ inrPrice: "0" }, "inrPrice")).toBe(
      "The price in rupees must be above 0, or leave it empty for the rate's",
    );
    expect(fieldMessage({ inrPrice: "₹4,199" }, "inrPrice")).toBe("Enter the price in rupees like 49.99");
    expect(variantFormSchema.parse({ sku: "A-1", label: "L", price: "1", inrPrice: "" }).inrPrice).toBeNull();
    expect(fieldMessage({ termMonths: "0" }, "termMonths")).toMatch(/^Enter a term from 1 to 120/);
    expect(
      variantFormSchema.parse({ sku: "A-1", label: "L", price: "0", termMonths: "120", stock: "0" }),
    ).toMatchObject({
      price: "0",
      termMonths: 120,
      stock: 0,
      hidden: false,
    });
  });
});
