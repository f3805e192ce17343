import type { PaymentMethod } from "~db/schema/orders";

const LONG_DATE = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

/** A day as documents print it: "12 March 2027" (UTC, as every document). */
export const longDate = (iso: string) => LONG_DATE.format(new Date(iso));

/** When a licence key stops working, as the buyer reads it: "Expires 12 March 2027". */
export const expiryText = (iso: string) => `Expires ${longDate(iso)}`;

/** Order statuses as customers read them. */
export const ORDER_STATUS_LABELS: Record<string, string> = {
  pending_payment: "Waiting for payment",
  paid: "Paid",
  held: "On hold",
  fulfilled: "Complete",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

/** Payment methods as customers read them. */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  "bank-transfer": "Bank transfer",
  stripe: "Card",
  sandbox: "Test payment (demo store)",
  none: "Nothing to pay",
};

/** The first line of an order's history, which the customer sees. */
export const PLACED_MESSAGES: Record<PaymentMethod, string> = {
  "bank-transfer": "Order placed, to be paid by bank transfer",
  stripe: "Order placed, to be paid by card",
  sandbox: "Order placed, to be paid with a test payment",
  none: "Order placed; it comes to 0.00, so there is nothing to pay",
};
