import { and, eq, or } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { brandGroups, type LineKind, products, type Section } from "~db/schema";
import { type Availability, availabilityOf } from "~/modules/catalogue/availability";
import { stockOf } from "~/modules/catalogue/stock.server";
import { type CartRequestLine, MAX_QUANTITY } from "./cart";

export type PricedLine = {
  groupKey: string;
  id: string;
  productId: number;
  name: string;
  img: string;
  route: string;
  brandName: string;
  /** The catalogue section (what a discount code may be limited to). */
  section: Section;
  kind: LineKind;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  /** The price the visitor saw when adding it, when it has changed since. */
  previousPriceCents?: number;
  /** Whether this quantity is delivered at once, after a wait, or cannot be ordered now. */
  availability: Availability;
};

export type UnavailableLine = { groupKey: string; id: string; name: string; quantity: number };

export type PricedCart = {
  lines: PricedLine[];
  /** Lines whose product no longer exists or is no longer sold: flagged, never charged. */
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

/**
 * Prices a cart (checked by parseCartRequest) from the catalogue as it is now, with each line's availability:
 * nothing the browser says about price or name is used.
 */
export async function priceCart(db: Database | Transaction, cart: CartRequestLine[]): Promise<PricedCart> {
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
  const stock = await stockOf(db, rows);
  const lines: PricedLine[] = [];
  const unavailable: UnavailableLine[] = [];
  for (const line of cart) {
    const row = found.get(`${line.groupKey}\u0000${line.id}`);
    if (!row) {
      unavailable.push({
        groupKey: line.groupKey,
        id: line.id,
        name: line.name ?? "",
        quantity: line.quantity,
      });
      continue;
    }
    lines.push({
      groupKey: row.groupKey,
      id: row.id,
      productId: row.productId,
      name: row.name,
      img: row.img,
      route: row.route,
      brandName: row.brandName,
      section: row.section,
      kind: kindOf(row.section),
      unitPriceCents: row.priceCents,
      quantity: line.quantity,
      lineTotalCents: row.priceCents * line.quantity,
      previousPriceCents:
        line.priceCents !== undefined && line.priceCents !== row.priceCents ? line.priceCents : undefined,
      availability: availabilityOf(stock.get(row.productId)!, line.quantity, MAX_QUANTITY),
    });
  }
  return {
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
