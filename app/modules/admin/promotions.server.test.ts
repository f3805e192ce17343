import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, orders, products, promotions } from "~db/schema";
import { fieldErrors, formToObject } from "~/lib/forms";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { insertOrderWithCode } from "../../../tests/support/promotion-orders";
import { promotionFormSchema, promotionListQuery } from "./promotions-schemas";
import {
  createPromotion,
  deletePromotion,
  listPromotions,
  promotionForEdit,
  setPromotionPaused,
  updatePromotion,
} from "./promotions.server";

const ADMIN = "owner@example.com";
const DAY = 24 * 60 * 60 * 1000;
/** A date-and-time field's value, `days` from now (UTC). */
const fieldTime = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 16);

/** A complete form as the page posts it, with some fields changed. */
const fields = (overrides: Record<string, string> = {}) => ({
  code: "SAVE10",
  description: "",
  kind: "percent",
  value: "10",
  scope: "order",
  minSubtotal: "",
  startsAt: "",
  endsAt: "",
  usageLimit: "",
  perCustomerLimit: "",
  ...overrides,
});

describe.each(drivers)("the admin's discount codes on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database.close();
  });

  /** Posts the form as the page's action does: checked by the shared schema, then created with its audit entry. */
  async function post(values: Record<string, string>) {
    const parsed = promotionFormSchema.safeParse(formToObject(values));
    if (!parsed.success) return { ok: false as const, errors: fieldErrors(parsed.error) };
    const result = await createPromotion(database.db, parsed.data, ADMIN);
    return result.ok ? result : { ok: false as const, errors: "errors" in result ? result.errors : {} };
  }
  async function created(values: Record<string, string>) {
    const result = await post(values);
    if (!result.ok) throw new Error(`not created: ${JSON.stringify(result.errors)}`);
    return result.id;
  }
  const stored = async () => (await database.db.select({ n: count() }).from(promotions))[0]!.n;
  const audits = async () =>
    (await database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.entity, "promotion")))[0]!.n;
  const actionsOf = async (id: number) =>
    (
      await database.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.entity, "promotion"), eq(auditLog.entityId, String(id))))
        .orderBy(auditLog.id)
    ).map((entry) => entry.action);
  const list = (query: Record<string, string> = {}) =>
    listPromotions(database.db, promotionListQuery.parse(query));
  const rowOf = async (code: string) => (await list({ q: code })).rows.find((row) => row.code === code)!;

  it("creates a code with its audit entry, and the list says its terms in words", async () => {
    const id = await created(fields());
    const norton = await created(
      fields({
        code: "Norton-5_off",
        kind: "fixed",
        value: "5",
        scope: "brands",
        "brands.Norton": "on",
        "brands.McAfee": "on",
        includesShipping: "on",
        minSubtotal: "50",
      }),
    );
    const half = await created(
      fields({
        code: "SOFT125",
        value: "12.5 %",
        scope: "section",
        "sections.antivirus": "on",
        "sections.windows": "on",
      }),
    );
    expect((await rowOf("SAVE10")).terms).toBe("10% off the whole order");
    expect((await rowOf("SAVE10")).status).toBe("active");
    expect((await rowOf("Norton-5_off")).terms).toBe(
      "$5.00 off Norton and McAfee, shipping too, on orders from $50.00",
    );
    expect((await rowOf("SOFT125")).terms).toBe("12.5% off Antivirus and Windows");
    const [row] = await database.db.select().from(promotions).where(eq(promotions.id, half));
    expect(row).toMatchObject({
      kind: "percent",
      percentBasisPoints: 1250,
      amountCents: null,
      scope: "section",
    });
    const [fixed] = await database.db.select().from(promotions).where(eq(promotions.id, norton));
    expect(fixed).toMatchObject({
      amountCents: 500,
      percentBasisPoints: null,
      minSubtotalCents: 5000,
      includesShipping: true,
      scope: "brands",
    });
    expect([...fixed!.scopeValues].sort()).toEqual(["McAfee", "Norton"]);
    expect(await actionsOf(id)).toEqual(["promotion.create"]);
  });

  it("names the products a code applies to", async () => {
    const picked = await database.db.select({ id: products.id, name: products.name }).from(products).limit(2);
    await created(
      fields({
        code: "TWO-PRODUCTS",
        scope: "products",
        ...Object.fromEntries(picked.map((product) => [`products.${product.id}`, "on"])),
      }),
    );
    expect((await rowOf("TWO-PRODUCTS")).terms).toBe(`10% off ${picked[0]!.name} and ${picked[1]!.name}`);
  });

  it("refuses a code whose text is taken in any case, and stores nothing", async () => {
    const [before, logged] = [await stored(), await audits()];
    const result = await post(fields({ code: "save10", value: "20" }));
    expect(result).toEqual({
      ok: false,
      errors: { code: "The code save10 is taken: another discount code has it (in any case)" },
    });
    // Two admins saving the same new code at once: one gets it, the other the same message.
    const racing = await Promise.all(["RACE-A", "race-a", "Race-A"].map((code) => post(fields({ code }))));
    expect(racing.filter((r) => r.ok)).toHaveLength(1);
    for (const refused of racing.filter((r) => !r.ok))
      expect((refused as { errors: Record<string, string> }).errors.code).toMatch(/is taken/);
    expect(await stored()).toBe(before + 1);
    expect(await audits()).toBe(logged + 1);
  });

  it("refuses each bad input with its message beside the field, and stores nothing", async () => {
    const [before, logged] = [await stored(), await audits()];
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ code: "X".repeat(10_000) }, "code", "A code has at most 40 characters"],
      [{ code: "AB" }, "code", "A code has at least 3 characters"],
      [{ code: "SUMMER SALE" }, "code", "Use only letters, digits, - and _ (no spaces)"],
      [{ code: "" }, "code", "Enter the code customers type"],
      [{ kind: "fixed", value: "-5" }, "value", "The amount must be more than $0.00"],
      [{ kind: "fixed", value: "0" }, "value", "The amount must be more than $0.00"],
      [{ kind: "fixed", value: "100000.01" }, "value", "The amount can be at most $100,000.00"],
      [{ kind: "fixed", value: "5.001" }, "value", "Enter the amount in dollars and cents, like 5.00"],
      [{ value: "150" }, "value", "The percentage can be at most 100%"],
      [{ value: "100.01" }, "value", "The percentage can be at most 100%"],
      [{ value: "0" }, "value", "The percentage must be at least 0.01%"],
      [{ value: "-10" }, "value", "The percentage cannot be negative"],
      [{ value: "ten" }, "value", "Enter the percentage as a number, like 10 or 12.5"],
      [{ value: "" }, "value", "Enter the percentage, like 10 or 12.5"],
      [
        { startsAt: "2026-12-01T00:00", endsAt: "2026-11-01T00:00" },
        "endsAt",
        "The end must be after the start",
      ],
      [
        { startsAt: "2026-12-01T00:00", endsAt: "2026-12-01T00:00" },
        "endsAt",
        "The end must be after the start",
      ],
      [{ startsAt: "2026-02-30T10:00" }, "startsAt", "This date does not exist"],
      [{ endsAt: "tomorrow" }, "endsAt", "Enter a date and time, like 2026-11-27 09:00"],
      [{ kind: "free" }, "kind", "Choose a percentage or a fixed amount"],
      [{ scope: "everything" }, "scope", "Choose what the code applies to"],
      [{ scope: "section", "sections.garden": "on" }, "sections", "Choose sections from the list"],
      [{ scope: "section" }, "sections", "Tick at least one section"],
      [{ scope: "brands", "brands.NoSuchBrand": "on" }, "brands", "No such brand: NoSuchBrand"],
      [
        { scope: "products", "products.999999": "on" },
        "products",
        "These products are not in the catalogue (any more): 999999",
      ],
      [{ scope: "products", "products.abc": "on" }, "products", "Choose products from the list"],
      [
        { usageLimit: "0" },
        "usageLimit",
        "Enter a whole number from 1 to 1,000,000, or leave it empty for no limit",
      ],
      [
        { perCustomerLimit: "1.5" },
        "perCustomerLimit",
        "Enter a whole number from 1 to 1,000,000, or leave it empty for no limit",
      ],
      [{ minSubtotal: "-1" }, "minSubtotal", "The minimum cannot be negative"],
      [{ description: "d".repeat(501) }, "description", "At most 500 characters"],
    ];
    for (const [changes, field, message] of cases) {
      const result = await post(fields({ code: "BAD-INPUT", ...changes }));
      expect(result.ok, JSON.stringify(changes).slice(0, 80)).toBe(false);
      expect((result as { errors: Record<string, string> }).errors[field], field).toBe(message);
    }
    expect(await stored()).toBe(before);
    expect(await audits()).toBe(logged);
  });

  it("edits a code, audited before and after; orders placed with it keep what they were charged", async () => {
    const id = await created(fields({ code: "EDIT-ME" }));
    const order = await insertOrderWithCode(database.db, {
      promotionId: id,
      code: "EDIT-ME",
      subtotalCents: 10_000,
      discountCents: 1_000,
    });
    const input = promotionFormSchema.parse(
      formToObject(
        fields({ code: "EDITED", kind: "fixed", value: "7.50", usageLimit: "100", perCustomerLimit: "1" }),
      ),
    );
    expect(await updatePromotion(database.db, id, input, ADMIN)).toEqual({ ok: true, id });
    const [row] = await database.db.select().from(promotions).where(eq(promotions.id, id));
    expect(row).toMatchObject({
      code: "EDITED",
      kind: "fixed",
      amountCents: 750,
      percentBasisPoints: null,
      usageLimit: 100,
      perCustomerLimit: 1,
    });
    const [kept] = await database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(kept).toMatchObject({
      promotionId: id,
      discountCode: "EDIT-ME",
      discountCents: 1_000,
      totalCents: 9_000,
    });
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "promotion.update"), eq(auditLog.entityId, String(id))));
    expect(entry!.before).toMatchObject({ code: "EDIT-ME", percentBasisPoints: 1000 });
    expect(entry!.after).toMatchObject({ code: "EDITED", amountCents: 750 });

    // Taking another code's text is refused; a code that is gone is not found.
    const taken = await updatePromotion(database.db, id, { ...input, code: "SAVE10" }, ADMIN);
    expect(taken).toEqual({
      ok: false,
      reason: "invalid",
      errors: { code: "The code SAVE10 is taken: another discount code has it (in any case)" },
    });
    expect(await updatePromotion(database.db, 999_999, input, ADMIN)).toEqual({
      ok: false,
      reason: "not-found",
    });
  });

  it("refuses an end in the past: on a new code, and on an edit that moves the end; ending now is an edit", async () => {
    const before = await stored();
    expect(await post(fields({ code: "NEVER", endsAt: fieldTime(-1) }))).toEqual({
      ok: false,
      errors: { endsAt: "The end date is in the past: the code would never work" },
    });
    expect(await stored()).toBe(before);

    const id = await created(fields({ code: "ENDING", endsAt: fieldTime(2) }));
    const edit = (overrides: Record<string, string>) =>
      updatePromotion(
        database.db,
        id,
        promotionFormSchema.parse(formToObject(fields({ code: "ENDING", ...overrides }))),
        ADMIN,
      );
    expect(await edit({ endsAt: fieldTime(-1) })).toEqual({
      ok: false,
      reason: "invalid",
      errors: {
        endsAt:
          "The end date is in the past: to end the code now, pause it or set the end to the current time",
      },
    });
    // The current minute, as the owner types it: the code ends now.
    expect(await edit({ endsAt: fieldTime(0) })).toEqual({ ok: true, id });
    expect((await rowOf("ENDING")).status).toBe("expired");
    // A code that ended long ago keeps its end as it was, and its other fields stay editable.
    const past = fieldTime(-1);
    await database.db
      .update(promotions)
      .set({ endsAt: new Date(`${past}:00Z`) })
      .where(eq(promotions.id, id));
    expect(await edit({ endsAt: past, description: "Ended last week" })).toEqual({ ok: true, id });
    expect(await deletePromotion(database.db, id, ADMIN)).toMatchObject({ ok: true }); // out of the later counts
  });

  it("pauses and resumes a code, each audited, and the filter finds it by its status", async () => {
    const id = await created(fields({ code: "PAUSE-ME" }));
    expect(await setPromotionPaused(database.db, id, true, ADMIN)).toBe(true);
    expect((await rowOf("PAUSE-ME")).status).toBe("paused");
    expect((await list({ status: "paused" })).rows.map((row) => row.code)).toEqual(["PAUSE-ME"]);
    expect(await setPromotionPaused(database.db, id, false, ADMIN)).toBe(true);
    expect((await rowOf("PAUSE-ME")).status).toBe("active");
    expect(await actionsOf(id)).toEqual(["promotion.create", "promotion.pause", "promotion.resume"]);
    expect(await setPromotionPaused(database.db, 999_999, true, ADMIN)).toBe(false);
  });

  it("tells scheduled, expired and used-up codes apart, and counts each status for the filter", async () => {
    await created(fields({ code: "LATER", startsAt: fieldTime(3) }));
    // A new code cannot end in the past: this one ended after it was made.
    const over = await created(fields({ code: "OVER", startsAt: fieldTime(-10), endsAt: fieldTime(1) }));
    await database.db
      .update(promotions)
      .set({ endsAt: new Date(Date.now() - DAY) })
      .where(eq(promotions.id, over));
    const usedUp = await created(fields({ code: "ALL-GONE", usageLimit: "2" }));
    // Checkout counts uses; here the count is set as two orders would have left it.
    await database.db.update(promotions).set({ uses: 2 }).where(eq(promotions.id, usedUp));
    const page = await list();
    const statusOf = (code: string) => page.rows.find((row) => row.code === code)?.status;
    expect([statusOf("LATER"), statusOf("OVER"), statusOf("ALL-GONE")]).toEqual([
      "scheduled",
      "expired",
      "used_up",
    ]);
    for (const status of ["scheduled", "expired", "used_up", "active", "paused"] as const) {
      const filtered = await list({ status });
      expect(filtered.rows.every((row) => row.status === status)).toBe(true);
      expect(filtered.total).toBe(page.counts[status]);
    }
    expect((await list({ status: "expired" })).rows.map((row) => row.code)).toEqual(["OVER"]);
    const used = (await list({ status: "used_up" })).rows[0]!;
    expect([used.uses, used.usageLimit]).toEqual([2, 2]);
  });

  it("adds up each code's orders: not cancelled, not test orders, totals less refunds, and the discount given", async () => {
    const id = await created(fields({ code: "FIGURES" }));
    const other = await created(fields({ code: "FIGURES-NONE" }));
    const place = (order: Omit<Parameters<typeof insertOrderWithCode>[1], "promotionId" | "code">) =>
      insertOrderWithCode(database.db, { promotionId: id, code: "FIGURES", ...order });
    await place({ subtotalCents: 10_000, discountCents: 1_000 }); // paid: 90.00
    await place({ subtotalCents: 5_000, discountCents: 500, status: "pending_payment" }); // 45.00
    await place({ subtotalCents: 20_000, discountCents: 2_000, status: "cancelled" }); // not counted
    await place({ subtotalCents: 8_000, discountCents: 800, shippingCents: 1_499, refundedCents: 2_000 }); // 86.99 - 20.00
    await place({ subtotalCents: 30_000, discountCents: 3_000, isTest: true }); // no money moved: not counted
    await insertOrderWithCode(database.db, {
      promotionId: null,
      code: "",
      subtotalCents: 99_900,
      discountCents: 0,
    });

    const row = await rowOf("FIGURES");
    expect(row).toMatchObject({
      orders: 3,
      revenueCents: 9_000 + 4_500 + 6_699,
      discountCents: 1_000 + 500 + 800,
      ordersPlaced: 5,
    });
    expect(await rowOf("FIGURES-NONE")).toMatchObject({
      orders: 0,
      revenueCents: 0,
      discountCents: 0,
      ordersPlaced: 0,
    });
    const top = await list({ sort: "revenue", dir: "desc", pageSize: "5" });
    expect(top.rows[0]!.code).toBe("FIGURES");
    const page = await promotionForEdit(database.db, id);
    expect(page).toMatchObject({ orders: 3, revenueCents: 20_199, discountCents: 2_300, ordersPlaced: 5 });
    expect(page!.latestOrders).toHaveLength(5);
    expect(other).toBeGreaterThan(id);
  });

  it("deletes an unused code, audited; a used one is kept with its orders, to be paused instead", async () => {
    const unused = await created(fields({ code: "DELETE-ME" }));
    expect(await deletePromotion(database.db, unused, ADMIN)).toEqual({ ok: true });
    expect(await database.db.select().from(promotions).where(eq(promotions.id, unused))).toEqual([]);
    expect(await actionsOf(unused)).toEqual(["promotion.create", "promotion.delete"]);

    const used = await created(fields({ code: "KEEP-ME" }));
    await insertOrderWithCode(database.db, {
      promotionId: used,
      code: "KEEP-ME",
      subtotalCents: 1_000,
      discountCents: 100,
      status: "cancelled",
    });
    expect(await deletePromotion(database.db, used, ADMIN)).toEqual({ ok: false, reason: "used", orders: 1 });
    expect(
      await database.db.select({ id: promotions.id }).from(promotions).where(eq(promotions.id, used)),
    ).toHaveLength(1);
    expect(await actionsOf(used)).toEqual(["promotion.create"]);
    expect(await deletePromotion(database.db, 999_999, ADMIN)).toEqual({ ok: false, reason: "not-found" });
  });

  it("searches codes and descriptions and pages the list", async () => {
    await created(fields({ code: "BLACKFRIDAY", description: "The November campaign" }));
    expect((await list({ q: "november" })).rows.map((row) => row.code)).toEqual(["BLACKFRIDAY"]);
    expect((await list({ q: "blackfr" })).rows.map((row) => row.code)).toEqual(["BLACKFRIDAY"]);
    const all = await list({ sort: "code", dir: "asc", pageSize: "5" });
    const second = await list({ sort: "code", dir: "asc", pageSize: "5", page: "2" });
    expect(all.rows).toHaveLength(5);
    expect(all.total).toBe(await stored());
    const codes = [...all.rows, ...second.rows].map((row) => row.code.toLowerCase());
    expect(codes).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(codes.length);
  });
});
