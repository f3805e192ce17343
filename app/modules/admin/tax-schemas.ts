import { z } from "zod";
import { TAX_PRODUCT_KINDS, type TaxProductKind } from "~db/schema/pricing";
import { COUNTRIES } from "~/lib/address";
import { isRegionOf, REGION_CODE, regionsOf } from "~/lib/regions";
import { checkbox } from "./content-schemas";
import { basisPointsInput, parsedField, parsePercent } from "./pricing-fields";

/** The forms of the taxes page (/admin/taxes): one schema each, shared by the form and the action. */

export const TAX_KIND_LABELS: Record<TaxProductKind, string> = {
  all: "Everything",
  software: "Software (licence keys)",
  hardware: "Hardware (printers and routers)",
  service: "Digital services",
};

const country = z.enum(Object.keys(COUNTRIES) as [string, ...string[]], "Choose a country from the list");

/** What a region field says when the code is not one of the country's. */
const regionMessage = (countryCode: string) =>
  regionsOf(countryCode)
    ? `Choose a state of ${COUNTRIES[countryCode]} from the list`
    : "Use the region's code: letters and digits, at most 3, like BC";

const TAX_NAME_MAX = 60;

export const taxRuleFormSchema = z
  .object({
    country,
    region: z
      .string()
      .optional()
      .transform((text) => (text ?? "").trim().toUpperCase()),
    productKind: z.enum(TAX_PRODUCT_KINDS, "Choose what the rule taxes"),
    name: z
      .string({ error: "Name the tax as checkout and invoices print it, like CGST" })
      .trim()
      .min(1, "Name the tax as checkout and invoices print it, like CGST")
      .max(TAX_NAME_MAX, `At most ${TAX_NAME_MAX} characters`),
    rate: parsedField(
      (text) => parsePercent(text, { min: 0, max: 10_000, decimals: 3, what: "rate" }),
      "Enter the rate, like 18 or 8.25",
    ),
    appliesToShipping: checkbox,
  })
  .superRefine((rule, ctx) => {
    if (rule.region && !isRegionOf(rule.country, rule.region))
      ctx.addIssue({ code: "custom", path: ["region"], message: regionMessage(rule.country) });
  })
  .transform(({ rate, ...rule }) => ({ ...rule, rateBasisPoints: rate }));

export type TaxRuleInput = z.infer<typeof taxRuleFormSchema>;

export const pricesFormSchema = z.object({ pricesIncludeTax: checkbox });

/** Ticked boxes ("regions.NY" = "on", read as { NY: "on" }) as the codes ticked. */
const tickedRegions = z.preprocess(
  (value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value)
          .filter(([, on]) => on === "on")
          .map(([code]) => code)
      : [],
  z.array(z.string().max(10)).max(100, "At most 100 regions"),
);

/** Formats of the numbers a store registered in the United States or India has; others are taken as typed. */
const NUMBER_FORMATS: Record<string, { pattern: RegExp; message: string }> = {
  GSTIN: {
    pattern: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/,
    message: "A GSTIN has 15 characters: the state's 2 digits, the PAN, then 3 more, like 29ABCDE1234F1Z5",
  },
  EIN: { pattern: /^\d{2}-?\d{7}$/, message: "An EIN has 9 digits, like 12-3456789" },
};

export const taxRegistrationFormSchema = z
  .object({
    country,
    label: z
      .string({ error: "Enter the kind of number, like EIN, GSTIN or VAT" })
      .trim()
      .min(1, "Enter the kind of number, like EIN, GSTIN or VAT")
      .max(20, "At most 20 characters"),
    number: z
      .string({ error: "Enter the registration number" })
      .trim()
      .toUpperCase()
      .min(1, "Enter the registration number")
      .max(40, "At most 40 characters")
      .regex(/^[A-Z0-9][A-Z0-9 ./-]*$/, "Use letters, digits, spaces, dots, dashes and slashes"),
    regions: tickedRegions,
    regionCodes: z
      .string()
      .max(500, "At most 500 characters")
      .optional()
      .transform((text) => (text ?? "").toUpperCase()),
  })
  .superRefine((form, ctx) => {
    const format = NUMBER_FORMATS[form.label.toUpperCase()];
    if (format && !format.pattern.test(form.number))
      ctx.addIssue({ code: "custom", path: ["number"], message: format.message });
    if (regionsOf(form.country)) {
      if (!form.regions.every((code) => isRegionOf(form.country, code)))
        ctx.addIssue({ code: "custom", path: ["regions"], message: regionMessage(form.country) });
    } else {
      const codes = form.regionCodes.split(/[\s,]+/).filter(Boolean);
      if (!codes.every((code) => REGION_CODE.test(code)))
        ctx.addIssue({
          code: "custom",
          path: ["regionCodes"],
          message: "Give region codes separated by commas, like BC, ON (letters and digits, at most 3 each)",
        });
      else if (codes.length > 100)
        ctx.addIssue({ code: "custom", path: ["regionCodes"], message: "At most 100 regions" });
    }
  })
  .transform((form) => ({
    country: form.country,
    label: form.label,
    number: form.number,
    regions: [
      ...new Set(regionsOf(form.country) ? form.regions : form.regionCodes.split(/[\s,]+/).filter(Boolean)),
    ],
  }));

export type TaxRegistrationInput = z.infer<typeof taxRegistrationFormSchema>;

/** A stored rule as its form shows it. */
export function taxRuleFormValues(rule: {
  country: string;
  region: string;
  productKind: TaxProductKind;
  name: string;
  rateBasisPoints: number;
  appliesToShipping: boolean;
}): Record<string, string> {
  return {
    country: rule.country,
    region: rule.region,
    productKind: rule.productKind,
    name: rule.name,
    rate: basisPointsInput(rule.rateBasisPoints),
    ...(rule.appliesToShipping ? { appliesToShipping: "on" } : {}),
  };
}

/** A stored registration as its form shows it: its states ticked, or its region codes as text. */
export function taxRegistrationFormValues(registration: {
  country: string;
  label: string;
  number: string;
  regions: string[];
}): Record<string, string> {
  const values: Record<string, string> = {
    country: registration.country,
    label: registration.label,
    number: registration.number,
  };
  if (regionsOf(registration.country))
    for (const code of registration.regions) values[`regions.${code}`] = "on";
  else values.regionCodes = registration.regions.join(", ");
  return values;
}
