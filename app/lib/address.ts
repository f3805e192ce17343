import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";
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

export const addressSchema = z
  .object({
    name: text("full name", 100),
    line1: text("street address", 200),
    line2: optionalText("second address line", 200),
    city: text("city", 100),
    region: optionalText("state or region", 100),
    postalCode: text("postal code", 20)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,18}$/, "Enter a valid postal code")
      // As the post prints it: "sw1a  1aa" is kept as "SW1A 1AA".
      .transform((code) => code.toUpperCase().replace(/\s+/g, " ")),
    country: z.enum(Object.keys(COUNTRIES) as [string, ...string[]], "Choose a country from the list"),
    phone: optionalText("phone number", 30).refine(
      (value) => value === "" || /^\+?[0-9 ()-]{6,30}$/.test(value),
      "Enter a valid phone number",
    ),
  })
  // Checked also when another field is refused, so that a customer fixes every field at once (but not when the
  // code itself was refused already: one message is enough).
  .refine(postalCodeFits, {
    path: ["postalCode"],
    when: ({ value, issues }) =>
      postalCodeAndCountry(value) !== null && !issues.some((issue) => issue.path?.[0] === "postalCode"),
    error: ({ input }) => postalCodeMessage(postalCodeAndCountry(input)?.country ?? ""),
  })
  .overwrite((address) => ({ ...address, postalCode: withPostsHyphen(address) }));

/**
 * Whether the postal code has the form its country's codes have ("ABCDE" is no United States ZIP code); any code
 * fits a country whose codes have no one form (the United Arab Emirates have none).
 */
function postalCodeFits({ postalCode, country }: { postalCode: string; country: string }) {
  if (!postcodeValidatorExistsForCountry(country)) return true;
  // A space some write inside a code ("110 001" in India) is no mistake, nor a hyphen left out ("1000001" in Japan).
  return [postalCode, postalCode.replace(/ /g, ""), withPostsHyphen({ postalCode, country })].some((code) =>
    postcodeValidator(code, country),
  );
}

/** Where the post writes a hyphen in codes often typed as digits only: Japan's 100-0001 typed "1000001". */
const HYPHEN_AFTER: Record<string, number> = { JP: 3, PL: 2, PT: 4 };

/**
 * The code with its post's hyphen when it was typed as digits only (spaces aside) and fits so; otherwise the code as
 * it is.
 */
function withPostsHyphen({ postalCode, country }: { postalCode: string; country: string }) {
  const at = HYPHEN_AFTER[country];
  // A space where the hyphen goes ("100 0001") is the same code.
  const digits = postalCode.replace(/ /g, "");
  if (at === undefined || !/^\d+$/.test(digits)) return postalCode;
  const hyphened = `${digits.slice(0, at)}-${digits.slice(at)}`;
  return postcodeValidator(hyphened, country) ? hyphened : postalCode;
}

/** "Enter a postal code used in the United Kingdom, like SW1A 1AA". */
function postalCodeMessage(country: string) {
  const name = COUNTRIES[country];
  if (!name) return "Enter the postal code of the country chosen";
  const place = NAMED_WITH_THE.has(country) ? `the ${name}` : name;
  const example = POSTAL_CODE_EXAMPLES[country];
  return `Enter a postal code used in ${place}${example ? `, like ${example}` : ""}`;
}

/** Countries a sentence names with "the". */
const NAMED_WITH_THE = new Set(["US", "GB", "NL", "AE"]);

function postalCodeAndCountry(value: unknown) {
  const { postalCode, country } = (value ?? {}) as Record<string, unknown>;
  return typeof postalCode === "string" && typeof country === "string" && country in COUNTRIES
    ? { postalCode, country }
    : null;
}

/** One code of each country, as its post writes it. */
const POSTAL_CODE_EXAMPLES: Record<string, string> = {
  US: "10001 or 10001-1234",
  IN: "110001",
  CA: "K1A 0B1",
  GB: "SW1A 1AA",
  AU: "2000",
  NZ: "6011",
  IE: "D02 X285",
  DE: "10115",
  FR: "75001",
  ES: "28013",
  IT: "00184",
  NL: "1012 AB",
  BE: "1000",
  SE: "111 22",
  NO: "0150",
  DK: "1050",
  FI: "00100",
  PL: "00-001",
  PT: "1000-001",
  CH: "8001",
  AT: "1010",
  SG: "018956",
  ZA: "8001",
  MX: "06000",
  BR: "01310-100",
  JP: "100-0001",
};

/** The parts of an address that are printed: an order's, a saved one, an invoice's copy. */
export type PostalAddress = {
  line1: string;
  line2?: string;
  city: string;
  region?: string;
  postalCode: string;
  country: string;
};

/** Countries whose post writes the postal code before the town: "10115 Berlin", "00184 Roma RM". */
const CODE_BEFORE_TOWN = new Set("AT BE CH DE DK ES FI FR IT MX NL NO PL PT SE".split(" "));

/**
 * The line with the town, state and postal code, the one way every page, e-mail and invoice writes it: "New York, NY
 * 10001" in the United States (and so in India, Canada, Australia...: "Lucknow, UP 226001"), "London SW1A 1AA"
 * without a state, "10115 Berlin" where the post puts the code first. Blank when all three are blank (a deleted
 * customer's order keeps only its country).
 */
export function townLine({ city, region = "", postalCode, country }: PostalAddress): string {
  const [town, state, code] = [city.trim(), region.trim(), postalCode.trim()];
  if (CODE_BEFORE_TOWN.has(country)) return [code, town, state].filter(Boolean).join(" ");
  const place = [town, state].filter(Boolean).join(", ");
  return state ? `${place} ${code}`.trim() : [place, code].filter(Boolean).join(" ");
}

/** An address as printed, under the name: street lines, the town line and the country's name; no blank lines. */
export function addressLines(address: PostalAddress): string[] {
  return [
    address.line1,
    address.line2 ?? "",
    townLine(address),
    COUNTRIES[address.country] ?? address.country,
  ].filter((line) => line.trim() !== "");
}
