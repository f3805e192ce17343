import { z } from "zod";
import { PAYMENT_METHODS } from "~db/schema/orders";
import { MAX_LINES, MAX_QUANTITY } from "~/modules/cart/cart";
export { fieldErrors, formToObject } from "~/lib/forms";

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

export const cartInputSchema = z
  .array(
    z.object({
      groupKey: z.string().min(1).max(60),
      id: z.string().min(1).max(100),
      quantity: z
        .number({ error: `Quantities must be whole numbers from 1 to ${MAX_QUANTITY}` })
        .int(`Quantities must be whole numbers from 1 to ${MAX_QUANTITY}`)
        .min(1, `Quantities must be whole numbers from 1 to ${MAX_QUANTITY}`)
        .max(MAX_QUANTITY, `Quantities must be whole numbers from 1 to ${MAX_QUANTITY}`),
    }),
    { error: "Your cart could not be read: reload the page and try again" },
  )
  .min(1, "Your cart is empty")
  .max(MAX_LINES, `A cart holds at most ${MAX_LINES} different products`);

const cartJson = z
  .string({ error: "Your cart could not be read: reload the page and try again" })
  .max(20_000, "Your cart is too large")
  .transform((value, ctx) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "Your cart could not be read: reload the page and try again" });
      return z.NEVER;
    }
  })
  .pipe(cartInputSchema);

/** The checkout form, checked the same way in the browser and in the action. */
export const checkoutSchema = z.object({
  idempotencyKey: z.uuid("The checkout form is out of date: reload the page"),
  email: z.email("Enter a valid e-mail address").max(254, "The e-mail address is too long"),
  billing: z.preprocess((value) => value ?? {}, addressSchema),
  shipToBilling: z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean()),
  shipping: z.unknown().optional(),
  paymentMethod: z.enum(PAYMENT_METHODS, "Choose a payment method"),
  cart: cartJson,
  acceptTerms: z.literal("on", "Please accept the terms and conditions to place the order"),
});

export type CheckoutInput = z.infer<typeof checkoutSchema>;

export const orderLookupSchema = z.object({
  number: z.coerce
    .number({ error: "Enter your order number" })
    .int("Enter your order number")
    .min(1, "Enter your order number")
    .max(2_000_000_000, "Enter your order number"),
  email: z.email("Enter the e-mail address used for the order").max(254),
});
