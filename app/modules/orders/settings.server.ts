import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Transaction } from "~db/client.server";
import { companyDetails, settings, webInfo } from "~db/schema";
import type { ServerContext } from "~/context";
import { COUNTRIES } from "~/lib/address";
import { currencyOfCookieHeader } from "~/lib/currency";
import type { CurrencyChoice } from "~/lib/currency-context";
import { DEFAULT_INR_RATE, type InrRate, INR_ROUNDINGS } from "~/lib/money";
import { LOW_STOCK_DEFAULT } from "~/modules/catalogue/availability";
import { fromSnapshot } from "~/modules/content/snapshot.server";

const bankText = (fallback: string, max = 200) => z.string().trim().max(max).default(fallback);
const flag = z.boolean().default(true);

export const taxRegistrationSchema = z.object({
  country: z.string().refine((code) => code in COUNTRIES),
  label: z.string().trim().min(1).max(20),
  number: z.string().trim().min(1).max(40),
  regions: z.array(z.string().trim().min(1).max(10)).max(100),
});
export type TaxRegistration = z.infer<typeof taxRegistrationSchema>;

/**
 * Every store setting, with its default: the database holds the truth (table `settings`, one row per key), code
 * only the defaults. Read per request through getSettings, so a change reaches every process at once. A default
 * stands only for a key never saved: a stored value that does not decode is an error (StoredSettingsError), never
 * replaced by the default, or the store would tell buyers to pay into the sample bank account.
 */
const settingsSchema = z.object({
  /** Flat shipping charged when an order has physical goods... */
  shippingFlatCents: z.number().int().min(0).default(1499),
  /** ...unless its subtotal reaches this. */
  freeShippingThresholdCents: z.number().int().min(0).default(19900),
  /**
   * Rupees (ADR 0039): paise per US dollar (8350 = ₹83.50), and how a converted price is rounded. Every price,
   * shipping amount and threshold in rupees is the dollar amount at this rate.
   */
  inrPaisePerUsd: z.number().int().min(1).max(100_000_000).default(DEFAULT_INR_RATE.paisePerUsd),
  inrRounding: z.enum(INR_ROUNDINGS).default(DEFAULT_INR_RATE.rounding),
  /**
   * Countries physical goods ship to (ISO codes of lib/address COUNTRIES); checkout offers only these. The United
   * States by default, as the demo store's shipping policy says.
   */
  shipsTo: z
    .array(z.string())
    .transform((codes) => codes.filter((code) => code in COUNTRIES))
    .pipe(z.array(z.string()).min(1))
    .default(["US"]),
  /**
   * The sandbox method pays at once: for development and the demo store only. In production it is offered only
   * when this is stored as true (the demo store's file says so; importing a catalogue of one's own turns it off).
   */
  sandboxPayments: z.boolean().default(false),
  /**
   * An unpaid order holds stock and a use of its discount code; after this many hours without its bank transfer it
   * expires (cancelled, both given back, the buyer told)...
   */
  unpaidBankTransferHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(72),
  /** ...and a card checkout left unpaid after this many (Stripe's checkout page closes a few minutes before). */
  unpaidCardHours: z.number().int().min(1).max(24).default(2),
  /** What a waiting order is promised: keys of an out-of-stock product are sent within this many hours. */
  waitingOrderHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  /** Bank transfer: who the account belongs to, and either an IBAN or an account and routing number. */
  bankAccountHolder: bankText("KeyHaven Tech Store (sample details)"),
  bankIban: bankText(""),
  bankAccountNumber: bankText("000123456789"),
  bankRoutingNumber: bankText("021000021"),
  /** The payment reference the buyer must write; `{number}` is the order number. */
  bankReference: bankText("Order {number}"),
  /** Said after the details: when the order is delivered. */
  bankNote: bankText(
    "We ship and send licence keys once the payment arrives, usually within two business days.",
    500,
  ),
  /** Owner notifications (to the store's support e-mail), each kind on or off. */
  notifyPaidOrder: flag,
  notifyBankTransfer: flag,
  notifyMessages: flag,
  notifyLowStock: flag,
  /** A key pool (or, later, a stock count) below this is low in the daily digest. */
  lowStockThreshold: z.number().int().min(1).max(10_000).default(LOW_STOCK_DEFAULT),
  /** Whether catalogue prices include tax (the tax is then worked out of them) or tax is added at checkout. */
  pricesIncludeTax: z.boolean().default(false),
  /**
   * Where the store is registered to collect tax, printed on invoices: the country, the kind of number ("EIN",
   * "GSTIN", "VAT"), the number, and the regions (states) it is registered in there. The tax rules say what is charged.
   */
  taxRegistrations: z.array(taxRegistrationSchema).max(20).default([]),
  /**
   * Renewal reminders: e-mails to a licence's owner this many days before it expires (0: on the day). Off until the
   * owner turns them on, so a store that updates does not start writing to its customers unasked.
   */
  renewalReminders: z.boolean().default(false),
  renewalReminderDays: z
    .array(z.number().int().min(0).max(365))
    .min(1)
    .max(5)
    .refine((days) => new Set(days).size === days.length, "the days must differ")
    .default([30, 7, 0]),
  /**
   * Saved-cart reminders: one e-mail to a signed-in customer whose cart was left this many hours unchanged. Off
   * until the owner turns them on.
   */
  savedCartReminders: z.boolean().default(false),
  savedCartReminderHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),

  /**
   * Hold risky orders (ADR 0035): a paid order a rule matches is held, nothing delivered, until the store decides.
   * Off by default. A rule whose figure is 0 is off.
   */
  holdsEnabled: z.boolean().default(false),
  /** Hold an e-mail address's first order (none paid or complete before) above this total, in cents. */
  holdFirstOrderAboveCents: z.number().int().min(0).default(0),
  /** Hold when more than this many orders came in the past hour from one e-mail address, client or card. */
  holdOrdersPerHour: z.number().int().min(0).max(1000).default(0),
  /** Hold when Stripe Radar rates the card payment elevated or highest risk, or opens a review of it. */
  holdOnRadarRisk: z.boolean().default(true),
  /** What the buyer of a held order is promised: checked, and keys sent or money back, within this many hours. */
  holdCheckHours: z.number().int().min(1).max(168).default(12),
});

export type StoreSettings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof StoreSettings;

/** A stored setting that does not decode as its schema expects: its key, what is stored, and what is wrong. */
export type UnreadableSetting = { key: string; stored: unknown; problem: string };

export class StoredSettingsError extends Error {
  constructor(readonly unreadable: UnreadableSetting[]) {
    super(
      `Stored settings that cannot be read: ${unreadable
        .map(({ key, stored, problem }) => `${key} = ${JSON.stringify(stored)} (${problem})`)
        .join("; ")}. Save them again on /admin/settings.`,
    );
    this.name = "StoredSettingsError";
  }
}

/**
 * The settings as stored, each key checked on its own: the readable ones (defaults for keys never saved), and every
 * stored value that does not decode. For the settings page, which shows the second to the owner to fix.
 */
export async function readSettings(db: Database | Transaction) {
  const rows = await db.select().from(settings);
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  const values: Record<string, unknown> = {};
  const unreadable: UnreadableSetting[] = [];
  for (const [key, schema] of Object.entries(settingsSchema.shape)) {
    const decoded = (schema as z.ZodType).safeParse(stored.get(key));
    if (decoded.success) values[key] = decoded.data;
    else
      unreadable.push({
        key,
        stored: stored.get(key),
        problem: decoded.error.issues.map((issue) => issue.message).join(", "),
      });
  }
  return { values: values as Partial<StoreSettings>, unreadable };
}

/** The settings as stored (readSettings), as every page's frame reads them: kept in the public data snapshot. */
export const storedSettings = (
  context: Pick<ServerContext, "db"> & Partial<Pick<ServerContext, "contentVersion">>,
) => fromSnapshot(context, "settings-as-stored", () => readSettings(context.db));

/** What a setting is when it was never saved. */
export const settingDefault = <Key extends SettingKey>(key: Key) =>
  settingsSchema.shape[key].parse(undefined) as StoreSettings[Key];

/** The store's settings; throws StoredSettingsError when a stored value does not decode. */
export async function getSettings(db: Database | Transaction): Promise<StoreSettings> {
  const { values, unreadable } = await readSettings(db);
  if (unreadable.length) throw new StoredSettingsError(unreadable);
  return values as StoreSettings;
}

export async function saveSettings(db: Database | Transaction, values: Partial<StoreSettings>) {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    await db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } });
  }
}

/** Flat rate for orders with physical goods, free from the threshold on; software ships by e-mail, free. */
export function shippingCost(
  store: Pick<StoreSettings, "shippingFlatCents" | "freeShippingThresholdCents">,
  subtotalCents: number,
  hasPhysical: boolean,
) {
  if (!hasPhysical) return 0;
  return subtotalCents >= store.freeShippingThresholdCents ? 0 : store.shippingFlatCents;
}

/** The rate rupee prices are worked out at. */
export const inrRateOf = (store: Pick<StoreSettings, "inrPaisePerUsd" | "inrRounding">): InrRate => ({
  paisePerUsd: store.inrPaisePerUsd,
  rounding: store.inrRounding,
});

/**
 * What a page prices the catalogue in (ADR 0039): the shopper's currency, from their cookie (the page cache keeps a
 * page per currency), and the store's rate, its default standing in for a stored one that cannot be read, since every
 * page must render while the owner mends it. The root loader gives it to the pages; a loader pricing on the server
 * for the page (its JSON-LD) takes it from here too, so both show one price.
 */
export const pageMoney = (request: Request, stored: Partial<StoreSettings>): CurrencyChoice => ({
  currency: currencyOfCookieHeader(request.headers.get("Cookie")),
  rate: inrRateOf({
    inrPaisePerUsd: stored.inrPaisePerUsd ?? settingDefault("inrPaisePerUsd"),
    inrRounding: stored.inrRounding ?? settingDefault("inrRounding"),
  }),
});

export type BankTransferSettings = Pick<
  StoreSettings,
  "bankAccountHolder" | "bankIban" | "bankAccountNumber" | "bankRoutingNumber" | "bankReference" | "bankNote"
>;

/** The payment reference of one order, by the store's rule. */
export const bankReferenceFor = (store: Pick<StoreSettings, "bankReference">, orderNumber: number) =>
  store.bankReference.replaceAll("{number}", String(orderNumber));

/** The bank details a buyer needs, label by label, in the order the order page and the e-mail show them. */
export function bankTransferDetails(store: BankTransferSettings, orderNumber: number) {
  const details: Array<{ label: string; value: string }> = [
    { label: "Account holder", value: store.bankAccountHolder },
  ];
  if (store.bankIban) details.push({ label: "IBAN", value: store.bankIban });
  if (store.bankAccountNumber) details.push({ label: "Account number", value: store.bankAccountNumber });
  if (store.bankRoutingNumber) details.push({ label: "Routing number", value: store.bankRoutingNumber });
  details.push({ label: "Reference", value: bankReferenceFor(store, orderNumber) });
  return details;
}

/** The same details as lines of text (the e-mail and the order page), the store's note last. */
export function bankTransferText(store: BankTransferSettings, orderNumber: number) {
  const lines = bankTransferDetails(store, orderNumber).map(({ label, value }) => `${label}: ${value}`);
  return [...lines, ...(store.bankNote ? [store.bankNote] : [])].join("\n");
}

/**
 * Who the store is in its e-mails: the name and support e-mail of the store's web info and the company details' phone
 * (the records the header, footer and contact page show too), read at each use so a change reaches the next e-mail.
 */
export type StoreIdentity = { name: string; email: string; phone: string };

export async function storeIdentity(db: Database | Transaction): Promise<StoreIdentity> {
  const [[info], [company]] = await Promise.all([
    db.select({ name: webInfo.name, email: webInfo.email }).from(webInfo).limit(1),
    db.select({ phone: companyDetails.phone }).from(companyDetails).limit(1),
  ]);
  return { name: info?.name ?? "Our store", email: info?.email ?? "", phone: company?.phone ?? "" };
}
