import { and, eq, or } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { brandGroups, type LineKind, products, type Section } from "~db/schema";
import { type Availability, availabilityOf } from "~/modules/catalogue/availability";
import { stockOf, variantStockOf } from "~/modules/catalogue/stock.server";
import { variantsOfProducts } from "~/modules/catalogue/variants.server";
import { variantWithSku } from "~/modules/catalogue/variants";
import { convertCents, type Currency, type InrRate, unitPriceIn } from "~/lib/money";
import { type CartRequestLine, MAX_QUANTITY } from "./cart";

export type PricedLine = {
  groupKey: string;
  id: string;
  productId: number;
  name: string;
  /** The variant bought (its SKU as the store spells it, label and term); all null for a product sold as itself. */
  variantId: number | null;
  variant: string | null;
  variantLabel: string | null;
  termMonths: number | null;
  img: string;
  route: string;
  brandName: string;
  /** The catalogue section (what a discount code may be limited to). */
  section: Section;
  kind: LineKind;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  /** The price the visitor saw when adding it, when it has changed since (in the cart's currency). */
  previousPriceCents?: number;
  /** Whether this quantity is delivered at once, after a wait, or cannot be ordered now. */
  availability: Availability;
};

export type UnavailableLine = {
  groupKey: string;
  id: string;
  variant?: string;
  name: string;
  quantity: number;
};

export type PricedCart = {
  /** What every amount of it is in (minor units: cents, paise). */
  currency: Currency;
  lines: PricedLine[];
  /**
   * Lines whose product (or variant) no longer exists or is no longer sold, or that name no variant of a product
   * sold only in variants: flagged, never charged.
   */
  unavailable: UnavailableLine[];
  subtotalCents: number;
  /** What shipping is charged on: the printers and routers. */
  physicalSubtotalCents: number;
  itemCount: number;
  hasPhysical: boolean;
  /** Some line asks for more than the store can sell now (see each line's availability). */
  overStock: boolean;
};

export const kindOf = (section: Section): LineKind =>
  section === "printer" || section === "router" ? "physical" : "software";

/** The currency a cart is priced in, and the rate rupee prices are worked out at (ADR 0039). */
export type PricingCurrency = { currency: Currency; rate: InrRate };

const IN_DOLLARS: PricingCurrency = { currency: "USD", rate: { paisePerUsd: 100, rounding: "paisa" } };

/**
 * Prices a cart (checked by parseCartRequest) from the catalogue as it is now, in `money`'s currency, with each
 * line's availability: nothing the browser says about price, name or currency is used. The price a line was added
 * at is the catalogue's (dollars), compared before converting.
 */
export async function priceCart(
  db: Database | Transaction,
  cart: CartRequestLine[],
  money: PricingCurrency = IN_DOLLARS,
): Promise<PricedCart> {
  const inCurrency = (usdCents: number) => convertCents(usdCents, money.currency, money.rate);
  const rows =
    cart.length === 0
      ? []
      : await db
          .select({
            productId: products.id,
            groupKey: products.groupKey,
            id: products.externalId,
            name: products.name,
            img: products.img,
            route: products.route,
            priceCents: products.priceCents,
            inrPriceCents: products.inrPriceCents,
            waitingOrders: products.waitingOrders,
            section: brandGroups.section,
            brandName: brandGroups.name,
          })
          .from(products)
          .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
          .where(
            and(
              eq(products.hidden, false),
              or(
                ...cart.map((line) =>
                  and(eq(products.groupKey, line.groupKey), eq(products.externalId, line.id)),
                ),
              ),
            ),
          );
  const found = new Map(rows.map((row) => [`${row.groupKey}\u0000${row.id}`, row]));
  const variants = await variantsOfProducts(
    db,
    rows.map((row) => row.productId),
  );
  // Each line's product, and its variant: one on sale that the line names, for a product sold in variants.
  const matched = cart.map((line) => {
    const row = found.get(`${line.groupKey}\u0000${line.id}`);
    if (!row) return null;
    const own = variants.get(row.productId);
    if (!own) return line.variant === undefined ? { row, variant: null } : null;
    const variant = line.variant === undefined ? undefined : variantWithSku(own, line.variant);
    return variant && !variant.hidden ? { row, variant } : null;
  });
  const [stock, stockOfVariants] = await Promise.all([
    stockOf(
      db,
      rows.filter((row) => !variants.has(row.productId)),
    ),
    variantStockOf(
      db,
      matched.flatMap((match) => (match?.variant ? [{ ...match.row, variantId: match.variant.id }] : [])),
    ),
  ]);
  const lines: PricedLine[] = [];
  const unavailable: UnavailableLine[] = [];
  for (const [index, line] of cart.entries()) {
    const match = matched[index];
    if (!match) {
      unavailable.push({
        groupKey: line.groupKey,
        id: line.id,
        ...(line.variant === undefined ? {} : { variant: line.variant }),
        name: line.name ?? "",
        quantity: line.quantity,
      });
      continue;
    }
    const { row, variant } = match;
    // A variant is priced as itself (its own rupee price or the rate's), never by its product's own prices.
    const catalogue = variant ?? row;
    const catalogueCents = catalogue.priceCents;
    const priceCents = unitPriceIn(catalogue, money.currency, money.rate);
    lines.push({
      groupKey: row.groupKey,
      id: row.id,
      productId: row.productId,
      name: row.name,
      variantId: variant?.id ?? null,
      variant: variant?.sku ?? null,
      variantLabel: variant?.label ?? null,
      termMonths: variant?.termMonths ?? null,
      img: row.img,
      route: row.route,
      brandName: row.brandName,
      section: row.section,
      kind: kindOf(row.section),
      unitPriceCents: priceCents,
      quantity: line.quantity,
      lineTotalCents: priceCents * line.quantity,
      previousPriceCents:
        line.priceCents !== undefined && line.priceCents !== catalogueCents
          ? inCurrency(line.priceCents)
          : undefined,
      availability: availabilityOf(
        (variant ? stockOfVariants.get(variant.id) : stock.get(row.productId))!,
        line.quantity,
        MAX_QUANTITY,
      ),
    });
  }
  return {
    currency: money.currency,
    lines,
    unavailable,
    subtotalCents: lines.reduce((sum, line) => sum + line.lineTotalCents, 0),
    physicalSubtotalCents: lines
      .filter((line) => line.kind === "physical")
      .reduce((sum, line) => sum + line.lineTotalCents, 0),
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    hasPhysical: lines.some((line) => line.kind === "physical"),
    overStock: lines.some((line) => line.availability.status === "unavailable"),
  };
}
