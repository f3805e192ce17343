import { CURRENCIES } from "~/lib/money";
import { z } from "zod";
import { PAYMENT_METHODS } from "~db/schema/orders";
import { parseCartRequest } from "~/modules/cart/cart";
import { addressSchema } from "~/lib/address";
import { discountCodeSchema } from "~/modules/cart/discount-code";
export { fieldErrors, formToObject } from "~/lib/forms";

// The address form is shared with the address book (accounts): it lives in lib.
export { addressSchema, COUNTRIES } from "~/lib/address";

const CART_UNREADABLE = "Your cart could not be read: reload the page and try again";

/** The cart the checkout form carries (JSON), checked line by line with a message naming the line at fault. */
const cartJson = z
  .string({ error: CART_UNREADABLE })
  .max(20_000, "Your cart is too large")
  .transform((value, ctx) => {
    let lines: unknown;
    try {
      lines = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: "custom", message: CART_UNREADABLE });
      return z.NEVER;
    }
    const cart = parseCartRequest(lines);
    if (!cart.ok) {
      ctx.addIssue({ code: "custom", message: cart.message });
      return z.NEVER;
    }
    return cart.lines.map(({ groupKey, id, variant, quantity }) =>
      variant === undefined ? { groupKey, id, quantity } : { groupKey, id, variant, quantity },
    );
  });

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
  /**
   * The total the checkout showed, in cents: never what is charged (the server prices everything), only compared with
   * it, so that an order whose total changed since (a state picked while the summary was updating) is not placed.
   */
  expectedTotalCents: z.preprocess(
    (value) => (value === undefined || value === "" ? undefined : value),
    z.coerce
      .number("The checkout form is out of date: reload the page")
      .int("The checkout form is out of date: reload the page")
      .min(0, "The checkout form is out of date: reload the page")
      .max(2_000_000_000, "The checkout form is out of date: reload the page")
      .optional(),
  ),
  /**
   * The currency the checkout showed (ADR 0039); the order is priced in it from the catalogue, and its total
   * compared with expectedTotalCents. Without it, the shopper's cookie decides.
   */
  currency: z.enum(CURRENCIES, "The currency must be USD or INR").optional(),
  /** The discount code the shopper applied ('' for none): checked and priced on the server. */
  discountCode: z.preprocess((value) => value ?? "", discountCodeSchema),
  /** A business buyer's tax ID (VAT, GSTIN, EIN), printed on the invoice; optional. */
  // Trimmed before it is measured, so the limit the form's field takes from here is the one that holds.
  buyerTaxId: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toUpperCase() : (value ?? "")),
    z
      .string()
      .max(30, "A tax ID is at most 30 characters")
      .refine((value) => value === "" || value.length >= 5, "A tax ID has at least 5 characters")
      .refine(
        (value) => value === "" || /^[A-Z0-9][A-Z0-9 ./-]*$/.test(value),
        "A tax ID has only letters, digits, spaces, dots, slashes and dashes",
      ),
  ),
});

export type CheckoutInput = z.infer<typeof checkoutSchema>;

/** An order number as people write it: "1002", "#1002", "# 1002". */
const orderNumber = z.preprocess(
  (value) => (typeof value === "string" ? value.trim().replace(/^#\s*/, "") : value),
  z
    .string({ error: "Enter your order number" })
    .min(1, "Enter your order number")
    .regex(/^\d{1,10}$/, "Enter your order number, like 1002")
    .transform(Number)
    .refine((number) => number >= 1 && number <= 2_147_483_647, "Enter your order number, like 1002"),
);

export const orderLookupSchema = z.object({
  number: orderNumber,
  email: z
    .string({ error: "Enter the e-mail address used for the order" })
    .trim()
    .max(254, "The e-mail address is too long")
    .pipe(z.email("Enter the e-mail address used for the order")),
});
