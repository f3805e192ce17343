import { z } from "zod";
import { COUNTRIES } from "~/lib/address";
import { INR_ROUNDINGS, parseMoney } from "~/lib/money";
import { checkbox, storeIdentitySchema } from "./content-schemas";

/** The store settings page's forms (/admin/settings): one schema each, shared by the form and the action. */

export const SETTINGS_SECTIONS = [
  "bank",
  "shipping",
  "currencies",
  "payments",
  "store",
  "delivery",
  "notifications",
  "renewals",
  "savedCarts",
  "holds",
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

const optional = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `The ${label} must be at most ${max} characters`)
    .optional()
    .transform((value) => value ?? "");

const money = (label: string) =>
  z
    .string({ error: `Enter the ${label}` })
    .trim()
    .min(1, `Enter the ${label}`)
    .regex(/^\d{1,7}(\.\d{1,2})?$/, `Enter the ${label} as an amount, like 14.99`)
    .transform(parseMoney);

/** An IBAN as people write it (spaces allowed), checked by its shape and its check digits (ISO 13616). */
const iban = z
  .string()
  .trim()
  .max(50, "An IBAN has at most 34 letters and digits")
  .optional()
  .transform((value) => (value ?? "").replace(/\s+/g, "").toUpperCase())
  .refine((value) => value === "" || /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(value), {
    message: "Enter a valid IBAN, like DE89 3704 0044 0532 0130 00",
  })
  .refine((value) => value === "" || !/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(value) || ibanChecks(value), {
    message: "This IBAN's check digits do not match: check it for a typo",
  })
  .transform((value) => value.replace(/(.{4})(?=.)/g, "$1 "));

function ibanChecks(value: string) {
  const moved = value.slice(4) + value.slice(0, 4);
  let rest = 0;
  for (const char of moved) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

export const bankSettingsSchema = z
  .object({
    bankAccountHolder: z
      .string({ error: "Enter the account holder" })
      .trim()
      .min(1, "Enter the account holder")
      .max(120, "The account holder must be at most 120 characters"),
    bankIban: iban,
    bankAccountNumber: optional("account number", 34).refine(
      (value) => value === "" || /^[A-Za-z0-9 -]{4,34}$/.test(value),
      "Enter the account number in letters and digits",
    ),
    bankRoutingNumber: optional("routing number", 20).refine(
      (value) => value === "" || /^[A-Za-z0-9 -]{4,20}$/.test(value),
      "Enter the routing number (or sort code, BSB) in digits",
    ),
    bankReference: z
      .string({ error: "Enter the payment reference" })
      .trim()
      .min(1, "Enter the payment reference")
      .max(100, "The reference must be at most 100 characters")
      .refine(
        (value) => value.includes("{number}"),
        "Put {number} where the order number goes, like Order {number}",
      ),
    bankNote: optional("note", 500),
  })
  .superRefine((bank, ctx) => {
    if (!bank.bankIban && !bank.bankAccountNumber)
      ctx.addIssue({
        code: "custom",
        path: ["bankIban"],
        message: "Enter an IBAN, or an account number below",
      });
  });

/** Countries ticked in the form: `shipsTo.US` = on (nested by the form reader). */
const countries = z.preprocess(
  (value) =>
    value && typeof value === "object"
      ? Object.entries(value)
          .filter(([code, on]) => on === "on" && code in COUNTRIES)
          .map(([code]) => code)
      : [],
  z.array(z.string()).min(1, "Tick at least one country to ship to"),
);

export const shippingSettingsSchema = z.object({
  shippingFlat: money("flat rate"),
  freeShippingThreshold: money("free-shipping threshold"),
  shipsTo: countries,
});

/** Rupees (ADR 0039): the rate in rupees per dollar ("83.50", stored in paise), and how a converted price rounds. */
export const currenciesSettingsSchema = z.object({
  inrRate: z
    .string({ error: "Enter the rate in rupees per US dollar" })
    .trim()
    .regex(/^\d{1,6}(\.\d{1,2})?$/, "Enter the rate in rupees per US dollar, like 83.50")
    .transform(parseMoney)
    .refine((paise) => paise > 0, "The rate must be more than 0"),
  inrRounding: z.enum(INR_ROUNDINGS, "Choose how rupee prices are rounded"),
});

const hours = (max: number, maxText: string) =>
  z.coerce
    .number({ error: "Enter a number of hours" })
    .int("Enter a whole number of hours")
    .min(1, "At least 1 hour")
    .max(max, `At most ${maxText}`);

export const paymentsSettingsSchema = z.object({
  sandboxPayments: checkbox,
  unpaidBankTransferHours: hours(720, "720 hours (30 days)"),
  // Stripe keeps a checkout page open for 24 hours at most.
  unpaidCardHours: hours(24, "24 hours"),
});

/** The store's name and support e-mail (web info) and its phone (company details), as the company page edits them. */
export const storeSettingsSchema = storeIdentitySchema;

export const deliverySettingsSchema = z.object({ waitingOrderHours: hours(720, "720 hours (30 days)") });

export const notificationSettingsSchema = z.object({
  notifyPaidOrder: checkbox,
  notifyBankTransfer: checkbox,
  notifyMessages: checkbox,
  notifyLowStock: checkbox,
  lowStockThreshold: z.coerce
    .number({ error: "Enter a number" })
    .int("Enter a whole number")
    .min(1, "At least 1")
    .max(10_000, "At most 10,000"),
});

/** The days before expiry as the owner types them: "30, 7, 0" (commas or spaces between). */
const reminderDays = z
  .string({ error: "Enter the days before expiry, like 30, 7, 0" })
  .trim()
  .min(1, "Enter at least one day, like 30, 7, 0")
  .max(100, "Enter at most 5 days, like 30, 7, 0")
  .transform((text, ctx) => {
    const parts = text.split(/[\s,;]+/).filter((part) => part !== "");
    const days: number[] = [];
    for (const part of parts) {
      if (!/^\d+$/.test(part)) {
        ctx.addIssue({ code: "custom", message: `“${part}” is not a whole number of days: use 0 to 365` });
        return z.NEVER;
      }
      const day = Number(part);
      if (day > 365) {
        ctx.addIssue({ code: "custom", message: `${day} is too many days: at most 365` });
        return z.NEVER;
      }
      if (days.includes(day)) {
        ctx.addIssue({ code: "custom", message: `${day} is there twice: give each day once` });
        return z.NEVER;
      }
      days.push(day);
    }
    if (days.length > 5) {
      ctx.addIssue({ code: "custom", message: `At most 5 days (there are ${days.length})` });
      return z.NEVER;
    }
    return days.sort((a, b) => b - a);
  });

export const renewalSettingsSchema = z.object({
  renewalReminders: checkbox,
  renewalReminderDays: reminderDays,
});

export const savedCartSettingsSchema = z.object({
  savedCartReminders: checkbox,
  savedCartReminderHours: hours(720, "720 hours (30 days)"),
});

/** Hold risky orders (ADR 0035): an empty figure (or 0) turns its rule off. */
export const holdSettingsSchema = z
  .object({
    holdsEnabled: checkbox,
    holdFirstOrderAbove: z
      .string()
      .trim()
      .max(20, "Enter the amount like 200.00, or leave it empty")
      .optional()
      .transform((value) => (value ?? "").replace(/^\$/, ""))
      .refine(
        (value) => value === "" || /^\d{1,7}(\.\d{1,2})?$/.test(value),
        "Enter the amount like 200.00, or leave it empty to hold no first order",
      )
      .transform((value) => (/^[0.]*$/.test(value) ? "" : value)),
    holdOrdersPerHour: z
      .string()
      .trim()
      .max(10, "Enter a whole number from 1 to 1,000, or leave it empty")
      .optional()
      .transform((value) => value ?? "")
      .refine(
        (value) => value === "" || (/^\d{1,4}$/.test(value) && Number(value) <= 1000),
        "Enter a whole number of orders from 1 to 1,000, or leave it empty to count none",
      )
      .transform((value) => (Number(value) === 0 ? "" : value)),
    holdOnRadarRisk: checkbox,
    holdCheckHours: hours(168, "168 hours (7 days)"),
  })
  .superRefine((form, ctx) => {
    if (form.holdsEnabled && !form.holdFirstOrderAbove && !form.holdOrdersPerHour && !form.holdOnRadarRisk)
      ctx.addIssue({
        code: "custom",
        path: ["holdFirstOrderAbove"],
        message: "Holding is on but every rule is off: set a rule, or turn holding off",
      });
  });

export const SETTINGS_SCHEMAS = {
  bank: bankSettingsSchema,
  shipping: shippingSettingsSchema,
  currencies: currenciesSettingsSchema,
  payments: paymentsSettingsSchema,
  store: storeSettingsSchema,
  delivery: deliverySettingsSchema,
  notifications: notificationSettingsSchema,
  renewals: renewalSettingsSchema,
  savedCarts: savedCartSettingsSchema,
  holds: holdSettingsSchema,
} as const;
