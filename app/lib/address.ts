import { z } from "zod";

/** Countries we ship to and bill in; codes are ISO 3166-1 alpha-2. */
export const COUNTRIES: Record<string, string> = {
  US: "United States",
  IN: "India",
  CA: "Canada",
  GB: "United Kingdom",
  AU: "Australia",
  NZ: "New Zealand",
  IE: "Ireland",
  DE: "Germany",
  FR: "France",
  ES: "Spain",
  IT: "Italy",
  NL: "Netherlands",
  BE: "Belgium",
  SE: "Sweden",
  NO: "Norway",
  DK: "Denmark",
  FI: "Finland",
  PL: "Poland",
  PT: "Portugal",
  CH: "Switzerland",
  AT: "Austria",
  SG: "Singapore",
  AE: "United Arab Emirates",
  ZA: "South Africa",
  MX: "Mexico",
  BR: "Brazil",
  JP: "Japan",
};

const text = (label: string, max: number) =>
  z
    .string({ error: `Enter the ${label}` })
    .trim()
    .min(1, `Enter the ${label}`)
    .max(max, `The ${label} must be at most ${max} characters`);
const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `The ${label} must be at most ${max} characters`)
    .optional()
    .transform((value) => value ?? "");

export const addressSchema = z.object({
  name: text("full name", 100),
  line1: text("street address", 200),
  line2: optionalText("second address line", 200),
  city: text("city", 100),
  region: optionalText("state or region", 100),
  postalCode: text("postal code", 20).regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,18}$/, "Enter a valid postal code"),
  country: z.enum(Object.keys(COUNTRIES) as [string, ...string[]], "Choose a country from the list"),
  phone: optionalText("phone number", 30).refine(
    (value) => value === "" || /^\+?[0-9 ()-]{6,30}$/.test(value),
    "Enter a valid phone number",
  ),
});

export type AddressInput = z.infer<typeof addressSchema>;
