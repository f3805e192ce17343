/**
 * Whether a product can be had, and how soon: computed on the server (product loaders, the cart quote, order
 * placement) and put in words here for the product page, the cart and the checkout.
 *
 * Stock is counted for software (the unused keys of its pool) and for printers and routers with a stock count (units
 * on hand not yet reserved by an order); a printer or router without a count is `inStock: null`, always in stock.
 */

/** Printers and routers with this many or fewer left say "Only N left", unless the `lowStockThreshold` setting says otherwise. */
export const LOW_STOCK_DEFAULT = 5;

/** What the store has of a product right now. */
export type Stock = {
  /** Units that can be delivered at once; null when the store does not count them. */
  inStock: number | null;
  /** Whether it may be ordered beyond that: the order waits and the rest follows within the promised time. */
  waitingOrders: boolean;
};

export type AvailabilityStatus = "in-stock" | "waiting" | "unavailable";

export type Availability = {
  /** For the quantity asked: all delivered at once, some or all after a wait, or not orderable now. */
  status: AvailabilityStatus;
  inStock: number | null;
  /** The most one order may take now. */
  maxQuantity: number;
};

/** The availability of `quantity` units, given the stock and the most one order line may hold. */
export function availabilityOf(stock: Stock, quantity: number, lineLimit: number): Availability {
  const counted = stock.inStock !== null;
  const inStock = Math.max(0, stock.inStock ?? 0);
  return {
    status: !counted || quantity <= inStock ? "in-stock" : stock.waitingOrders ? "waiting" : "unavailable",
    inStock: counted ? inStock : null,
    maxQuantity: !counted || stock.waitingOrders ? lineLimit : Math.min(lineLimit, inStock),
  };
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
const within = (hours: number) => `within ${hours} ${plural(hours, "hour", "hours")} of payment`;

/**
 * How a product page, a cart line or the checkout says it: "In stock: licence key by e-mail right after payment",
 * "Out of stock: licence key by e-mail within 24 hours of payment", "Unavailable: out of stock", and for a printer
 * or router with `lowStockAt` or fewer left, "Only 3 left: shipped with tracking once paid"...
 */
export function availabilityText(
  availability: Availability,
  quantity: number,
  kind: "software" | "physical",
  waitingHours: number,
  lowStockAt = 0,
): string {
  const { status, inStock } = availability;
  const keys = (n: number) => plural(n, "licence key", "licence keys");
  if (status === "unavailable") {
    return inStock === 0 || inStock === null
      ? "Unavailable: out of stock"
      : `Only ${inStock} available: lower the quantity to ${inStock} or fewer`;
  }
  if (kind === "physical") {
    if (status === "in-stock")
      return inStock !== null && inStock <= lowStockAt
        ? `Only ${inStock} left: shipped with tracking once paid`
        : "In stock: shipped with tracking once paid";
    return inStock
      ? `Only ${inStock} in stock: ${inStock} shipped once paid, the rest ${within(waitingHours)}`
      : `Out of stock: ships ${within(waitingHours)}`;
  }
  if (status === "in-stock") return `In stock: ${keys(quantity)} by e-mail right after payment`;
  if (!inStock) return `Out of stock: ${keys(quantity)} by e-mail ${within(waitingHours)}`;
  return `Only ${inStock} in stock: ${inStock} right after payment, the rest by e-mail ${within(waitingHours)}`;
}
