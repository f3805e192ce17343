import { and, asc, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, orders, outboxEmails, products, scheduledJobs, settings } from "~db/schema";
import { openDatabase, type DatabaseHandle } from "~db/client.server";
import { formToObject } from "~/lib/forms";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, ordersTestContext, address } from "../../../tests/support/orders";
import { submitContactMessage, submitQuoteRequest } from "~/modules/content/messages.server";
import { orderForBuyer, ordersContext, placeOrder } from "~/modules/orders/orders.server";
import {
  lowStockItems,
  notifyOwnerOfMessage,
  runLowStockDigest,
} from "~/modules/orders/owner-notifications.server";
import { getSettings, storeIdentity } from "~/modules/orders/settings.server";
import { readCompanyPhone } from "~/modules/content/company.server";
import { saveCompanyDetails } from "./content.server";
import { companyFormSchema } from "./content-schemas";
import { createAuth } from "~/modules/accounts/auth.server";
import { authRequest, lastEmail } from "../../../tests/support/accounts";
import { recordingLogger } from "../../../tests/support/logger";
import { testEnv } from "../../../tests/support/orders";
import { SETTINGS_SCHEMAS, type SettingsSection } from "./settings-schemas";
import { saveSettingsSection, settingsPage } from "./store-settings.server";

const env = { PUBLIC_URL: "https://shop.example.com" };

/** Posts a settings form as the page does: checked by its schema, saved with its audit entry. */
async function save(db: DatabaseHandle["db"], section: SettingsSection, form: Record<string, string>) {
  const parsed = SETTINGS_SCHEMAS[section].safeParse(formToObject(form));
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
  await saveSettingsSection(db, section, parsed.data as never, "owner@example.com");
}

const BANK = {
  bankAccountHolder: "Harbour Trading Ltd",
  bankIban: "DE89 3704 0044 0532 0130 00",
  bankAccountNumber: "",
  bankRoutingNumber: "",
  bankReference: "KH-{number}",
  bankNote: "Keys follow the payment.",
};

describe.each(drivers)("store settings on %s", (driver) => {
  let database: TestDatabase;
  /** A second handle on the same database: another server process, on PostgreSQL. */
  let other: DatabaseHandle;
  let cipher: KeyCipher;

  beforeAll(async () => {
    ({ database, cipher } = await createDemoDatabase(driver));
    other = driver === "postgres" ? await openDatabase({ url: database.url! }) : database;
  });
  afterAll(async () => {
    if (other !== database) await other.close();
    await database.close();
  });

  it("a change saved by one process reaches another at once: bank details, shipping, store name, no restart", async () => {
    // The other process has been serving (and reading settings) before the change.
    const before = await getSettings(other.db);
    expect(before.bankAccountHolder).not.toBe(BANK.bankAccountHolder);

    await save(database.db, "bank", BANK);
    await save(database.db, "shipping", {
      shippingFlat: "7.50",
      freeShippingThreshold: "500",
      "shipsTo.US": "on",
      "shipsTo.CA": "on",
    });
    await save(database.db, "store", {
      name: "Harbour Keys",
      email: "owner@harbour.example.com",
      phone: "(212) 555-0142",
      phonecall: "+12125550142",
    });

    // The other process places orders with what was just saved.
    const ctx = await ordersContext({ ...ordersTestContext(other.db, cipher) });
    expect(ctx.storeName).toBe("Harbour Keys");
    const placed = await placeOrder(
      ctx,
      checkout({
        paymentMethod: "bank-transfer",
        cart: [
          { groupKey: "Norton", id: "1", quantity: 1 },
          { groupKey: "tplink", id: "1", quantity: 1 },
        ],
      }),
    );
    expect(placed).toMatchObject({ ok: true, status: "pending_payment" });
    if (!placed.ok) return;
    const [order] = await other.db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(order!.shippingCents).toBe(750);

    const view = await orderForBuyer({ db: other.db, cipher }, placed.number);
    expect(view!.bankTransfer!.details).toEqual([
      { label: "Account holder", value: "Harbour Trading Ltd" },
      { label: "IBAN", value: "DE89 3704 0044 0532 0130 00" },
      { label: "Reference", value: `KH-${placed.number}` },
    ]);
    const [confirmation] = await other.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, placed.orderId), eq(outboxEmails.kind, "order-confirmation")));
    expect(confirmation!.subject).toBe(`Your order #${placed.number} at Harbour Keys`);
    expect(confirmation!.text).toContain("Account holder: Harbour Trading Ltd");
    expect(confirmation!.text).toContain(`Reference: KH-${placed.number}`);
    expect(confirmation!.text).toContain("owner@harbour.example.com or call (212) 555-0142");

    // The owner hears of the order waiting for their transfer, at the support address just saved.
    const [waiting] = await other.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, placed.orderId), eq(outboxEmails.kind, "owner-bank-transfer")));
    expect(waiting!.to).toBe("owner@harbour.example.com");
    expect(waiting!.text).toContain(`https://shop.example.com/admin/orders/${placed.number}`);

    // Each save is in the audit log, with what it was before.
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "settings.bank"))
      .orderBy(desc(auditLog.id));
    expect(entry).toMatchObject({ actor: "owner@example.com", entity: "settings", entityId: "bank" });
    expect((entry!.after as Record<string, string>).bankAccountHolder).toBe("Harbour Trading Ltd");
    expect((entry!.before as Record<string, string>).bankAccountHolder).toBe(before.bankAccountHolder);
  });

  it("account e-mails carry the store's name as it is now, not as it was when the server started", async () => {
    const origin = "http://shop.test";
    // As server/index.ts starts it: the name is asked for at each e-mail.
    const auth = createAuth({
      db: other.db,
      env: testEnv({ PUBLIC_URL: origin }),
      logger: recordingLogger().logger,
      mailer: { kick() {} },
      storeName: async () => (await storeIdentity(other.db)).name,
      rateLimit: false,
    });
    const signUp = (email: string) =>
      authRequest(auth, origin, "POST", "/sign-up/email", {
        email,
        password: "a-long-password",
        name: "Ada",
      });
    expect((await signUp("first.name@example.com")).status).toBe(200);
    expect((await lastEmail(other.db, "first.name@example.com", "email-verification"))!.subject).toBe(
      "Confirm your e-mail address at Harbour Keys",
    );
    await save(database.db, "store", {
      name: "Harbour Keys & Routers",
      email: "owner@harbour.example.com",
      phone: "(212) 555-0142",
      phonecall: "+12125550142",
    });
    expect((await signUp("second.name@example.com")).status).toBe(200);
    expect((await lastEmail(other.db, "second.name@example.com", "email-verification"))!.subject).toBe(
      "Confirm your e-mail address at Harbour Keys & Routers",
    );
  });

  it("checkout ships only to the countries of the settings", async () => {
    const ctx = ordersTestContext(other.db, cipher);
    const refused = await placeOrder(
      ctx,
      checkout({
        paymentMethod: "bank-transfer",
        billing: { ...address, country: "DE" },
        cart: [{ groupKey: "tplink", id: "1", quantity: 1 }],
      }),
    );
    expect(refused).toEqual({
      ok: false,
      errors: {
        shipToBilling: "We do not ship to Germany: printers and routers ship to United States, Canada",
      },
    });
    // Software is not shipped: any billing country will do.
    const software = await placeOrder(
      ctx,
      checkout({ paymentMethod: "bank-transfer", billing: { ...address, country: "DE" } }),
    );
    expect(software.ok).toBe(true);
  });

  it("the sandbox switched off is refused at checkout in production", async () => {
    const hours = { unpaidBankTransferHours: "72", unpaidCardHours: "2" };
    await save(database.db, "payments", hours);
    const production = ordersTestContext(other.db, cipher, {
      NODE_ENV: "production",
      PUBLIC_URL: "https://shop.example.com",
      AUTH_SECRET: "s".repeat(40),
    } as never);
    expect(await placeOrder(production, checkout({ paymentMethod: "sandbox" }))).toEqual({
      ok: false,
      errors: { paymentMethod: "That payment method is not available: choose another one" },
    });
    await save(database.db, "payments", { sandboxPayments: "on", ...hours });
    expect((await placeOrder(production, checkout({ paymentMethod: "sandbox" }))).ok).toBe(true);
  });

  it("tells the owner of a contact message with reply-to the sender, unless that kind is off", async () => {
    const send = (subject: string) =>
      submitContactMessage(
        { db: other.db },
        { name: "Grace Hopper", email: "grace@example.com", subject, message: "Do you ship to Canada?" },
        `client-${subject}`,
        (tx, message) => notifyOwnerOfMessage(tx, env, message),
      );
    expect(await send("Shipping question")).toMatchObject({ ok: true, stored: true });
    const [mail] = await other.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "owner-contact-message"))
      .orderBy(desc(outboxEmails.id));
    expect(mail).toMatchObject({ to: "owner@harbour.example.com", replyTo: "grace@example.com" });
    expect(mail!.subject).toBe("Contact message from Grace Hopper: Shipping question");

    // A quote request from a service page, the same way.
    const quote = await submitQuoteRequest(
      { db: other.db },
      { slug: "web-development", packages: [{ name: "Starter" }] },
      {
        name: "Alan Turing",
        email: "alan@example.com",
        packageName: "Starter",
        message: "A shop for my bakery, please.",
      },
      "client-quote",
      (tx, message) => notifyOwnerOfMessage(tx, env, message),
    );
    expect(quote).toMatchObject({ ok: true, stored: true });
    const [quoteMail] = await other.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "owner-quote-request"));
    expect(quoteMail).toMatchObject({
      to: "owner@harbour.example.com",
      replyTo: "alan@example.com",
      subject: "Quote request from Alan Turing: web-development (Starter)",
    });

    await save(database.db, "notifications", {
      notifyPaidOrder: "on",
      notifyBankTransfer: "on",
      notifyLowStock: "on",
      lowStockThreshold: "5",
    });
    expect(await send("Second question")).toMatchObject({ ok: true, stored: true });
    const after = await other.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "owner-contact-message"));
    expect(after).toHaveLength(1);
  });

  it("the daily low-stock digest runs once a day however many processes try", async () => {
    const outcomes = await Promise.all([
      runLowStockDigest(database.db, env),
      runLowStockDigest(other.db, env),
      runLowStockDigest(database.db, env),
    ]);
    expect(outcomes.filter((outcome) => outcome !== "not-due")).toHaveLength(1);
    const digests = await database.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "owner-low-stock"));
    expect(digests).toHaveLength(outcomes.includes("sent") ? 1 : 0);
    expect(await runLowStockDigest(other.db, env)).toBe("not-due");

    // A day later it runs again; with the demo pools (a few keys each) below a threshold of 1,000 it lists them.
    await save(database.db, "notifications", {
      notifyPaidOrder: "on",
      notifyBankTransfer: "on",
      notifyMessages: "on",
      notifyLowStock: "on",
      lowStockThreshold: "1000",
    });
    // Two printers counted: one sold out, one with a single unit left.
    const printers = await database.db
      .select({ id: products.id, name: products.name })
      .from(products)
      .where(eq(products.groupKey, "hp"))
      .orderBy(asc(products.id))
      .limit(2);
    const [soldOut, lastOne] = printers;
    await database.db.update(products).set({ stock: 0 }).where(eq(products.id, soldOut!.id));
    await database.db.update(products).set({ stock: 1 }).where(eq(products.id, lastOne!.id));
    await database.db.update(scheduledJobs).set({ lastRunAt: new Date(Date.now() - 25 * 3600 * 1000) });
    expect(await runLowStockDigest(other.db, env)).toBe("sent");
    const [digest] = await database.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "owner-low-stock"))
      .orderBy(desc(outboxEmails.id));
    expect(digest!.to).toBe("owner@harbour.example.com");
    expect(digest!.text).toMatch(/licence keys? left/);
    expect(digest!.text).toContain(`${soldOut!.name}: out of stock\n`);
    expect(digest!.text).toContain(`${lastOne!.name}: 1 left in stock\n`);
    expect(digest!.text).not.toMatch(/\b0 (in stock|licence keys?) left|\b1 licence keys|\b1 in stock/);
    expect(digest!.text).toMatch(
      /^\d+ products? ha(s|ve) none left and \d+ products are running low \(your low-stock threshold is 1000\)\./,
    );
    // Every product listed links to its page in the admin, in the text and in the HTML.
    const listed = await lowStockItems(database.db, env, 1000);
    expect(listed.length).toBeGreaterThan(2);
    for (const item of listed) {
      expect(digest!.text).toContain(`${item.adminUrl}\n`);
      expect(digest!.html).toContain(`<a href="${item.adminUrl}">`);
    }
    expect(digest!.html.match(/<a href=/g)).toHaveLength(listed.length);
  });

  it("reads every setting back exactly as it was saved: an all-digit account and routing number stay text", async () => {
    await save(database.db, "bank", {
      ...BANK,
      bankIban: "",
      bankAccountNumber: "987654321",
      bankRoutingNumber: "121000358",
      bankNote: "12345",
    });
    for (const db of [database.db, other.db]) {
      const stored = await getSettings(db);
      expect(stored.bankAccountNumber).toBe("987654321");
      expect(stored.bankRoutingNumber).toBe("121000358");
      expect(stored.bankNote).toBe("12345");
    }
    // Any jsonb value reads back as written: an audit entry that recorded a digit string keeps it a string.
    const [entry] = await database.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.action, "settings.bank"))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect((entry!.after as Record<string, unknown>).bankAccountNumber).toBe("987654321");
    await save(database.db, "bank", BANK);
  });

  it("the store has one phone: the settings page and the company details page edit the record the header reads", async () => {
    await save(database.db, "store", {
      name: "Harbour Keys",
      email: "owner@harbour.example.com",
      phone: "(646) 555-0177",
      phonecall: "+16465550177",
    });
    // What the header, footer and contact page show, and what e-mails and invoices sign with.
    expect(await readCompanyPhone(other)).toEqual({ phone: "(646) 555-0177", phonecall: "+16465550177" });
    expect((await storeIdentity(other.db)).phone).toBe("(646) 555-0177");

    // The company details page's save shows on the settings page.
    await saveCompanyDetails(
      database.db,
      companyFormSchema.parse({ phone: "(718) 555-0123", phonecall: "+17185550123" }),
      "owner@example.com",
    );
    const page = await settingsPage({
      db: other.db,
      env: { NODE_ENV: "production" },
      logger: recordingLogger().logger,
    });
    expect(page.identity).toMatchObject({ phone: "(718) 555-0123", phonecall: "+17185550123" });
    expect((await storeIdentity(other.db)).phone).toBe("(718) 555-0123");
  });

  it("a stored setting that does not decode is an error naming its key, shown on the settings page, never the default", async () => {
    const { logger, lines } = recordingLogger();
    await database.db
      .insert(settings)
      .values({ key: "bankAccountHolder", value: 42 })
      .onConflictDoUpdate({ target: settings.key, set: { value: 42 } });
    try {
      await expect(getSettings(other.db)).rejects.toThrow(
        /Stored settings that cannot be read: bankAccountHolder = 42/,
      );
      const page = await settingsPage({ db: database.db, env: { NODE_ENV: "production" }, logger });
      expect(page.unreadable).toEqual([
        { key: "bankAccountHolder", stored: "42", problem: expect.stringContaining("expected string") },
      ]);
      // The field shows what is stored, not the sample account holder.
      expect(page.settings.bankAccountHolder).toBe("42");
      expect(lines()).toContainEqual(
        expect.objectContaining({ msg: "a stored setting cannot be read", setting: "bankAccountHolder" }),
      );
    } finally {
      await save(database.db, "bank", BANK);
    }
    expect((await getSettings(other.db)).bankAccountHolder).toBe(BANK.bankAccountHolder);
  });

  it("refuses bank details without an account, a bad IBAN, or a reference without the order number", () => {
    const errors = (form: Record<string, string>) => {
      const parsed = SETTINGS_SCHEMAS.bank.safeParse(form);
      return parsed.success
        ? {}
        : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), i.message]));
    };
    expect(errors({ ...BANK, bankIban: "" })).toEqual({
      bankIban: "Enter an IBAN, or an account number below",
    });
    expect(errors({ ...BANK, bankIban: "DE89 3704 0044 0532 0130 01" })).toEqual({
      bankIban: "This IBAN's check digits do not match: check it for a typo",
    });
    expect(errors({ ...BANK, bankReference: "Order" })).toEqual({
      bankReference: "Put {number} where the order number goes, like Order {number}",
    });
    expect(
      errors({ ...BANK, bankIban: "", bankAccountNumber: "000123456789", bankRoutingNumber: "021000021" }),
    ).toEqual({});
    expect(
      SETTINGS_SCHEMAS.shipping.safeParse({ shippingFlat: "-1", freeShippingThreshold: "x", shipsTo: {} })
        .success,
    ).toBe(false);
  });
});
