import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, orders, taxRules } from "~db/schema";
import { fieldErrors, formToObject } from "~/lib/forms";
import { getSettings } from "~/modules/orders/settings.server";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { insertOrderWithCode } from "../../../tests/support/promotion-orders";
import {
  createTaxRule,
  deleteTaxRegistration,
  deleteTaxRule,
  listTaxRules,
  MAX_REGISTRATIONS,
  moveTaxRule,
  savePricesIncludeTax,
  saveTaxRegistration,
  updateTaxRule,
} from "./tax-rules.server";
import { taxRegistrationFormSchema, taxRuleFormSchema } from "./tax-schemas";

const ADMIN = "owner@example.com";

const rule = (overrides: Record<string, string> = {}) => ({
  country: "IN",
  region: "KA",
  productKind: "all",
  name: "CGST",
  rate: "9",
  ...overrides,
});

/** The rule form as the action reads it: a message per field, or the rule to save. */
function parseRule(values: Record<string, string>) {
  const parsed = taxRuleFormSchema.safeParse(formToObject(values));
  return parsed.success
    ? ({ ok: true, rule: parsed.data } as const)
    : ({ ok: false, errors: fieldErrors(parsed.error) } as const);
}

function parseRegistration(values: Record<string, string>) {
  const parsed = taxRegistrationFormSchema.safeParse(formToObject(values));
  return parsed.success
    ? ({ ok: true, registration: parsed.data } as const)
    : ({ ok: false, errors: fieldErrors(parsed.error) } as const);
}

describe.each(drivers)("the admin's taxes on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database.close();
  });

  async function add(values: Record<string, string>) {
    const parsed = parseRule(values);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    return createTaxRule(database.db, parsed.rule, ADMIN);
  }
  const stored = async () => (await database.db.select({ n: count() }).from(taxRules))[0]!.n;
  const audited = async (entity: string) =>
    await database.db
      .select({
        action: auditLog.action,
        entityId: auditLog.entityId,
        before: auditLog.before,
        after: auditLog.after,
      })
      .from(auditLog)
      .where(eq(auditLog.entity, entity))
      .orderBy(auditLog.id);
  const names = async () =>
    (await listTaxRules(database.db)).map((row) => `${row.country}/${row.region}/${row.name}`);

  it("adds rules, listed by country and region and then in their order, each audited", async () => {
    const cgst = await add(rule());
    await add(rule({ name: "SGST" }));
    await add(rule({ region: "", name: "IGST", rate: "18", appliesToShipping: "on" }));
    await add(
      rule({ country: "US", region: "NY", name: "NY sales tax", rate: "8.250", productKind: "hardware" }),
    );
    expect(await names()).toEqual(["IN//IGST", "IN/KA/CGST", "IN/KA/SGST", "US/NY/NY sales tax"]);
    const rows = await listTaxRules(database.db);
    expect(rows.find((row) => row.name === "IGST")).toMatchObject({
      rateBasisPoints: 1800,
      appliesToShipping: true,
    });
    expect(rows.find((row) => row.name === "NY sales tax")).toMatchObject({
      rateBasisPoints: 825,
      productKind: "hardware",
      appliesToShipping: false,
    });
    const entries = await audited("tax_rule");
    expect(entries.map((entry) => entry.action)).toEqual(Array(4).fill("tax_rule.create"));
    expect(entries[0]).toMatchObject({
      entityId: String(cgst),
      after: { name: "CGST", rateBasisPoints: 900 },
    });
  });

  it("refuses each bad rule with its message beside the field, and stores nothing", async () => {
    const [before, logged] = [await stored(), (await audited("tax_rule")).length];
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ rate: "-1" }, "rate", "The rate cannot be negative"],
      [{ rate: "1000" }, "rate", "The rate can be at most 100%"],
      [{ rate: "1000%" }, "rate", "The rate can be at most 100%"],
      [{ rate: "100.01" }, "rate", "The rate can be at most 100%"],
      [
        { rate: "8.875" },
        "rate",
        "The store keeps rates to a hundredth of a percent: round 8.875 to 8.87 or 8.88",
      ],
      [{ rate: "8.2501" }, "rate", "Give the rate with at most 3 decimals, like 12.5"],
      [{ rate: "" }, "rate", "Enter the rate, like 10 or 12.5"],
      [{ rate: "eighteen" }, "rate", "Enter the rate as a number, like 10 or 12.5"],
      [{ country: "XX" }, "country", "Choose a country from the list"],
      [{ country: "US", region: "KA" }, "region", "Choose a state of United States from the list"],
      [{ region: "NY" }, "region", "Choose a state of India from the list"],
      [
        { country: "CA", region: "British Columbia" },
        "region",
        "Use the region's code: letters and digits, at most 3, like BC",
      ],
      [{ productKind: "food" }, "productKind", "Choose what the rule taxes"],
      [{ name: "" }, "name", "Name the tax as checkout and invoices print it, like CGST"],
      [{ name: "N".repeat(61) }, "name", "At most 60 characters"],
    ];
    for (const [changes, field, message] of cases) {
      const parsed = parseRule(rule(changes));
      expect(parsed.ok, JSON.stringify(changes)).toBe(false);
      expect((parsed as { errors: Record<string, string> }).errors[field], JSON.stringify(changes)).toBe(
        message,
      );
    }
    // The database refuses what the form would never send, and keeps nothing of it.
    await expect(
      createTaxRule(database.db, { ...parseRuleOk(rule()), rateBasisPoints: 100_000 }, ADMIN),
    ).rejects.toThrow();
    expect(await stored()).toBe(before);
    expect((await audited("tax_rule")).length).toBe(logged);
    // A region typed in lower case is the state's code.
    expect(parseRuleOk(rule({ region: "ka" })).region).toBe("KA");
    expect(parseRuleOk(rule({ country: "CA", region: "bc" })).region).toBe("BC");
    expect(parseRuleOk(rule({ rate: "0" })).rateBasisPoints).toBe(0);
  });

  it("edits a rule, audited before and after; placed orders keep the tax they were charged", async () => {
    const order = await insertOrderWithCode(database.db, {
      promotionId: null,
      code: "",
      subtotalCents: 10_000,
      discountCents: 0,
    });
    await database.db
      .update(orders)
      .set({
        taxCents: 1_800,
        totalCents: 11_800,
        taxBreakdown: [{ name: "IGST", rateBasisPoints: 1800, taxableCents: 10_000, taxCents: 1_800 }],
      })
      .where(eq(orders.id, order.id));
    const [placed] = await database.db.select().from(orders).where(eq(orders.id, order.id));
    const [igst] = (await listTaxRules(database.db)).filter((row) => row.name === "IGST");

    expect(
      await updateTaxRule(
        database.db,
        igst!.id,
        parseRuleOk(rule({ region: "", name: "IGST", rate: "12" })),
        ADMIN,
      ),
    ).toBe(true);
    const [changed] = await database.db.select().from(taxRules).where(eq(taxRules.id, igst!.id));
    expect(changed).toMatchObject({ rateBasisPoints: 1200, appliesToShipping: false });
    const entry = (await audited("tax_rule")).at(-1)!;
    expect(entry).toMatchObject({
      action: "tax_rule.update",
      before: { rateBasisPoints: 1800, appliesToShipping: true },
      after: { rateBasisPoints: 1200, appliesToShipping: false },
    });
    expect(await deleteTaxRule(database.db, igst!.id, ADMIN)).toBe(true);
    expect((await audited("tax_rule")).at(-1)).toMatchObject({
      action: "tax_rule.delete",
      before: { name: "IGST" },
    });
    const [after] = await database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(after).toEqual(placed);

    expect(await updateTaxRule(database.db, 999_999, parseRuleOk(rule()), ADMIN)).toBe(false);
    expect(await deleteTaxRule(database.db, igst!.id, ADMIN)).toBe(false);
  });

  it("moves a rule within its country and region only; moved to another state it goes last there", async () => {
    const rows = await listTaxRules(database.db);
    const sgst = rows.find((row) => row.name === "SGST")!;
    expect(await moveTaxRule(database.db, sgst.id, "up", ADMIN)).toBe(true);
    expect(await names()).toEqual(["IN/KA/SGST", "IN/KA/CGST", "US/NY/NY sales tax"]);
    // The first of its place stays first, and only the move that changed something is in the audit log.
    expect(await moveTaxRule(database.db, sgst.id, "up", ADMIN)).toBe(true);
    expect(await names()).toEqual(["IN/KA/SGST", "IN/KA/CGST", "US/NY/NY sales tax"]);
    const moves = (await audited("tax_rule")).filter((entry) => entry.action === "tax_rule.move_up");
    expect(moves).toHaveLength(1);
    expect(moves[0]!.entityId).toBe(String(sgst.id));

    await add(rule({ region: "MH", name: "Maharashtra GST" }));
    const cgst = rows.find((row) => row.name === "CGST")!;
    expect(await updateTaxRule(database.db, cgst.id, parseRuleOk(rule({ region: "MH" })), ADMIN)).toBe(true);
    expect(await names()).toEqual([
      "IN/KA/SGST",
      "IN/MH/Maharashtra GST",
      "IN/MH/CGST",
      "US/NY/NY sales tax",
    ]);
    expect(await moveTaxRule(database.db, 999_999, "down", ADMIN)).toBe(false);
  });

  it("saves whether prices include tax, audited", async () => {
    expect((await getSettings(database.db)).pricesIncludeTax).toBe(false);
    await savePricesIncludeTax(database.db, true, ADMIN);
    expect((await getSettings(database.db)).pricesIncludeTax).toBe(true);
    expect((await audited("settings")).at(-1)).toMatchObject({
      action: "settings.taxes",
      before: { pricesIncludeTax: false },
      after: { pricesIncludeTax: true },
    });
  });

  it("adds, edits and deletes the store's registrations, audited, refusing a stale or repeated one", async () => {
    const gstin = parseRegistrationOk({
      country: "IN",
      label: "GSTIN",
      number: "29abcde1234f1z5",
      "regions.KA": "on",
    });
    expect(gstin).toEqual({ country: "IN", label: "GSTIN", number: "29ABCDE1234F1Z5", regions: ["KA"] });
    const ein = parseRegistrationOk({
      country: "US",
      label: "EIN",
      number: "12-3456789",
      "regions.NY": "on",
      "regions.NJ": "on",
    });
    expect(await saveTaxRegistration(database.db, null, gstin, ADMIN)).toEqual({ ok: true });
    expect(await saveTaxRegistration(database.db, null, ein, ADMIN)).toEqual({ ok: true });
    expect((await getSettings(database.db)).taxRegistrations).toEqual([gstin, ein]);

    // The same number again is refused; so is an edit of an entry another admin changed meanwhile.
    expect(await saveTaxRegistration(database.db, null, gstin, ADMIN)).toEqual({
      ok: false,
      reason: "duplicate",
    });
    const moved = { ...ein, regions: ["NY"] };
    expect(await saveTaxRegistration(database.db, { index: 1, was: "99-9999999" }, moved, ADMIN)).toEqual({
      ok: false,
      reason: "changed",
    });
    expect(await saveTaxRegistration(database.db, { index: 1, was: "12-3456789" }, moved, ADMIN)).toEqual({
      ok: true,
    });
    expect((await getSettings(database.db)).taxRegistrations[1]!.regions).toEqual(["NY"]);

    expect(await deleteTaxRegistration(database.db, { index: 0, was: "12-3456789" }, ADMIN)).toEqual({
      ok: false,
      reason: "changed",
    });
    expect(await deleteTaxRegistration(database.db, { index: 0, was: gstin.number }, ADMIN)).toEqual({
      ok: true,
    });
    expect((await getSettings(database.db)).taxRegistrations).toEqual([moved]);

    const entries = (await audited("settings")).filter(
      (entry) => entry.action === "settings.tax_registrations",
    );
    expect(entries).toHaveLength(4);
    expect(entries.at(-1)).toMatchObject({ before: [gstin, moved], after: [moved] });
  });

  it("keeps every registration two admins add at the same moment", async () => {
    const before = (await getSettings(database.db)).taxRegistrations;
    const added = Array.from({ length: 5 }, (_, n) =>
      parseRegistrationOk({ country: "GB", label: "VAT", number: `GB12345678${n}` }),
    );
    const outcomes = await Promise.all(
      added.map((registration) => saveTaxRegistration(database.db, null, registration, ADMIN)),
    );
    expect(outcomes).toEqual(Array(5).fill({ ok: true }));
    const after = (await getSettings(database.db)).taxRegistrations;
    expect(after).toHaveLength(before.length + 5);
    expect(after.map((entry) => entry.number).sort()).toEqual(
      [...before, ...added].map((entry) => entry.number).sort(),
    );
  });

  it("keeps at most 20 registrations, and refuses each bad one with its message", async () => {
    const current = (await getSettings(database.db)).taxRegistrations.length;
    for (let n = current; n < MAX_REGISTRATIONS; n++) {
      const vat = parseRegistrationOk({ country: "DE", label: "VAT", number: `DE${100_000_000 + n}` });
      expect(await saveTaxRegistration(database.db, null, vat, ADMIN)).toEqual({ ok: true });
    }
    const extra = parseRegistrationOk({ country: "FR", label: "VAT", number: "FR12345678901" });
    expect(await saveTaxRegistration(database.db, null, extra, ADMIN)).toEqual({ ok: false, reason: "full" });
    expect((await getSettings(database.db)).taxRegistrations).toHaveLength(MAX_REGISTRATIONS);

    const cases: Array<[Record<string, string>, string, string]> = [
      [
        { country: "IN", label: "GSTIN", number: "29ABCDE1234" },
        "number",
        "A GSTIN has 15 characters: the state's 2 digits, the PAN, then 3 more, like 29ABCDE1234F1Z5",
      ],
      [{ country: "US", label: "EIN", number: "1234" }, "number", "An EIN has 9 digits, like 12-3456789"],
      [{ country: "US", label: "EIN", number: "" }, "number", "Enter the registration number"],
      [
        { country: "US", label: "EIN", number: "12<b>3" },
        "number",
        "Use letters, digits, spaces, dots, dashes and slashes",
      ],
      [
        { country: "US", label: "", number: "12-3456789" },
        "label",
        "Enter the kind of number, like EIN, GSTIN or VAT",
      ],
      [
        { country: "IN", label: "GSTIN", number: "29ABCDE1234F1Z5", "regions.NY": "on" },
        "regions",
        "Choose a state of India from the list",
      ],
      [
        { country: "CA", label: "GST", number: "123456789RT0001", regionCodes: "British Columbia" },
        "regionCodes",
        "Give region codes separated by commas, like BC, ON (letters and digits, at most 3 each)",
      ],
      [{ country: "ZZ", label: "VAT", number: "1" }, "country", "Choose a country from the list"],
    ];
    for (const [values, field, message] of cases) {
      const parsed = parseRegistration(values);
      expect(parsed.ok, JSON.stringify(values)).toBe(false);
      expect((parsed as { errors: Record<string, string> }).errors[field]).toBe(message);
    }
    expect(
      parseRegistrationOk({
        country: "CA",
        label: "GST",
        number: "123456789RT0001",
        regionCodes: "bc, on,ON",
      }).regions,
    ).toEqual(["BC", "ON"]);
  });
});

function parseRuleOk(values: Record<string, string>) {
  const parsed = parseRule(values);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.rule;
}

function parseRegistrationOk(values: Record<string, string>) {
  const parsed = parseRegistration(values);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.registration;
}
