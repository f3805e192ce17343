import { z } from "zod";
import { PAYMENT_METHODS } from "~db/schema/orders";
import { MAX_LINES, MAX_QUANTITY } from "~/modules/cart/cart";
import { addressSchema } from "~/lib/address";
export { fieldErrors, formToObject } from "~/lib/forms";

// The address form is shared with the address book (accounts): it lives in lib.
export { addressSchema, type AddressInput, COUNTRIES } from "~/lib/address";

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
