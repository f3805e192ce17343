import { z } from "zod";
import {
  PROMOTION_KINDS,
  PROMOTION_SCOPES,
  type PromotionKind,
  type PromotionScope,
} from "~db/schema/pricing";
import { isSection } from "~/modules/catalogue/sections";
import { checkbox } from "./content-schemas";
import { listQuerySchema } from "./list-query";
import { CURRENCIES, type Currency, toDecimalString } from "~/lib/money";
import {
  basisPointsInput,
  dateTimeInput,
  optionalDateTime,
  optionalLimit,
  parseMoneyInput,
  parsePercent,
  parsedField,
} from "./pricing-fields";

/** The discount codes' form (/admin/promotions/new and /admin/promotions/{id}), shared by the form and the action. */

export const CODE_LIMITS = { min: 3, max: 40, description: 500 } as const;
/** The largest fixed amount a code may take off: far above any order the store takes. */
export const MAX_AMOUNT_CENTS = 10_000_000;
/** The largest minimum subtotal a code may ask for. */
export const MAX_MIN_SUBTOTAL_CENTS = 100_000_000;

/** Where a code stands now; one of them at a time, in this order of precedence (see promotionStatus). */
export const PROMOTION_STATUSES = ["active", "scheduled", "expired", "paused", "used_up"] as const;
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];

export const PROMOTION_STATUS_LABELS: Record<PromotionStatus, string> = {
  active: "Active",
  scheduled: "Scheduled",
  expired: "Expired",
  paused: "Paused",
  used_up: "Used up",
};

export const promotionListQuery = listQuerySchema(["code", "created", "uses", "revenue", "ends"], {
  sort: "created",
  dir: "desc",
}).extend({
  status: z.enum(["all", ...PROMOTION_STATUSES]).catch("all"),
});
export type PromotionListQuery = z.infer<typeof promotionListQuery>;

/** Ticked boxes ("brands.Norton" = "on", read as { Norton: "on" }) as the list of what was ticked. */
const ticked = z.preprocess(
  (value) =>
    Array.isArray(value)
      ? value
      : value && typeof value === "object"
        ? Object.entries(value)
            .filter(([, on]) => on === "on")
            .map(([key]) => key)
        : [],
  z.array(z.string().max(100)).max(500, "Choose at most 500"),
);

const checkValue = (kind: PromotionKind, text: string) =>
  kind === "percent"
    ? parsePercent(text, { min: 1, max: 10_000, what: "percentage" })
    : parseMoneyInput(text, { what: "amount", minCents: 1, maxCents: MAX_AMOUNT_CENTS });

/** Which ticked list holds the chosen scope's values, and its message when nothing is ticked. */
const SCOPE_FIELDS = {
  section: { field: "sections", none: "Tick at least one section" },
  brands: { field: "brands", none: "Tick at least one brand" },
  products: { field: "products", none: "Tick at least one product" },
} as const;

export const promotionFormSchema = z
  .object({
    code: z
      .string({ error: "Enter the code customers type" })
      .trim()
      .min(1, "Enter the code customers type")
      .min(CODE_LIMITS.min, `A code has at least ${CODE_LIMITS.min} characters`)
      .max(CODE_LIMITS.max, `A code has at most ${CODE_LIMITS.max} characters`)
      .regex(/^[A-Za-z0-9_-]*$/, "Use only letters, digits, - and _ (no spaces)"),
    description: z
      .string()
      .trim()
      .max(CODE_LIMITS.description, `At most ${CODE_LIMITS.description} characters`)
      .optional()
      .transform((text) => text ?? ""),
    kind: z.enum(PROMOTION_KINDS, "Choose a percentage or a fixed amount"),
    /** What its amount off and its minimum are in (ADR 0039); dollars for a form that does not say. */
    currency: z.enum(CURRENCIES, "Choose US dollars or Indian rupees").optional().default("USD"),
    value: z
      .string()
      .optional()
      .transform((text) => text ?? ""),
    scope: z.enum(PROMOTION_SCOPES, "Choose what the code applies to"),
    sections: ticked,
    brands: ticked,
    products: ticked,
    minSubtotal: parsedField(
      (text) =>
        text.trim() === ""
          ? { ok: true, value: 0 }
          : parseMoneyInput(text, { what: "minimum", minCents: 0, maxCents: MAX_MIN_SUBTOTAL_CENTS }),
      "Enter the minimum subtotal",
    )
      .optional()
      .transform((cents) => cents ?? 0),
    startsAt: optionalDateTime,
    endsAt: optionalDateTime,
    usageLimit: optionalLimit,
    perCustomerLimit: optionalLimit,
    includesShipping: checkbox,
    paused: checkbox,
  })
  .superRefine((form, ctx) => {
    const value = checkValue(form.kind, form.value);
    if (!value.ok) ctx.addIssue({ code: "custom", path: ["value"], message: value.message });
    if (form.scope !== "order") {
      const { field, none } = SCOPE_FIELDS[form.scope];
      const chosen = form[field];
      if (chosen.length === 0) ctx.addIssue({ code: "custom", path: [field], message: none });
      else if (field === "sections" && !chosen.every(isSection))
        ctx.addIssue({ code: "custom", path: [field], message: "Choose sections from the list" });
      else if (field === "products" && !chosen.every((id) => /^[1-9]\d{0,9}$/.test(id)))
        ctx.addIssue({ code: "custom", path: [field], message: "Choose products from the list" });
    }
    if (form.startsAt instanceof Date && form.endsAt instanceof Date && form.endsAt <= form.startsAt)
      ctx.addIssue({ code: "custom", path: ["endsAt"], message: "The end must be after the start" });
  })
  .transform((form) => {
    const value = checkValue(form.kind, form.value) as { ok: true; value: number };
    const scopeValues = form.scope === "order" ? [] : [...new Set(form[SCOPE_FIELDS[form.scope].field])];
    return {
      code: form.code,
      description: form.description,
      kind: form.kind,
      currency: form.currency,
      percentBasisPoints: form.kind === "percent" ? value.value : null,
      amountCents: form.kind === "fixed" ? value.value : null,
      scope: form.scope as PromotionScope,
      scopeValues,
      minSubtotalCents: form.minSubtotal,
      startsAt: form.startsAt,
      endsAt: form.endsAt,
      usageLimit: form.usageLimit,
      perCustomerLimit: form.perCustomerLimit,
      includesShipping: form.includesShipping,
      paused: form.paused,
    };
  });

export type PromotionInput = z.infer<typeof promotionFormSchema>;

/** A stored code as its form shows it, field by field (ticked boxes as "on"). */
export function promotionFormValues(promotion: {
  code: string;
  description: string;
  kind: PromotionKind;
  currency: Currency;
  percentBasisPoints: number | null;
  amountCents: number | null;
  scope: PromotionScope;
  scopeValues: string[];
  minSubtotalCents: number;
  startsAt: Date | string | null;
  endsAt: Date | string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  includesShipping: boolean;
  paused: boolean;
}): Record<string, string> {
  const values: Record<string, string> = {
    code: promotion.code,
    description: promotion.description,
    kind: promotion.kind,
    currency: promotion.currency,
    value:
      promotion.kind === "percent"
        ? basisPointsInput(promotion.percentBasisPoints ?? 0)
        : toDecimalString(promotion.amountCents ?? 0),
    scope: promotion.scope,
    minSubtotal: promotion.minSubtotalCents > 0 ? toDecimalString(promotion.minSubtotalCents) : "",
    startsAt: dateTimeInput(promotion.startsAt),
    endsAt: dateTimeInput(promotion.endsAt),
    usageLimit: promotion.usageLimit === null ? "" : String(promotion.usageLimit),
    perCustomerLimit: promotion.perCustomerLimit === null ? "" : String(promotion.perCustomerLimit),
  };
  if (promotion.scope !== "order")
    for (const value of promotion.scopeValues)
      values[`${SCOPE_FIELDS[promotion.scope].field}.${value}`] = "on";
  if (promotion.includesShipping) values.includesShipping = "on";
  if (promotion.paused) values.paused = "on";
  return values;
}

/** The form field that holds a scope's values, for messages about them. */
export const scopeField = (scope: Exclude<PromotionScope, "order">) => SCOPE_FIELDS[scope].field;
