import { and, asc, desc, eq, notInArray, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { orderEvents, orderLines, orders, orderShipments } from "~db/schema";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { orderDocuments } from "./invoices.server";
import { keyExpiryForOrder, keysForOrder, linesWithWithdrawnKeys } from "./licence-keys.server";
import { bankTransferDetails, bankTransferText, getSettings } from "./settings.server";

/**
 * What order-view.ts makes an order's views of, read from the store: by the order pages, the order e-mails and the
 * owner's notices alike, in a request or in the transaction of the change an e-mail reports.
 */

type Db = Database | Transaction;

/** One order: `eq(orders.number, …)` or `eq(orders.id, …)`. */
type Which = SQL;

/** The order, its lines, parcels and documents (order-view.ts `orderView`); null when there is no such order. */
export async function orderSource(db: Db, which: Which) {
  const [order] = await db.select().from(orders).where(which);
  if (!order) return null;
  const [lines, shipments, documents] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id)),
    db
      .select()
      .from(orderShipments)
      .where(eq(orderShipments.orderId, order.id))
      .orderBy(asc(orderShipments.id)),
    orderDocuments(db, order.id),
  ]);
  return { order, lines, shipments, documents };
}

/** The history the store keeps for itself: stock and discount-code bookkeeping, what became of the account. */
const STORE_ONLY_EVENTS = ["stock_released", "code_released", "customer-deleted"];

/**
 * An order as its buyer sees it (order-view.ts `buyerOrderView`): with delivered keys, its history but for the
 * store's bookkeeping, and how to pay a bank transfer still due. Callers check access first.
 */
export async function buyerOrderSource(db: Db, cipher: KeyCipher, which: Which) {
  const source = await orderSource(db, which);
  if (!source) return null;
  const { order } = source;
  const [keys, withdrawn, expiry, events, store] = await Promise.all([
    keysForOrder(db, cipher, order.id),
    linesWithWithdrawnKeys(db, order.id),
    keyExpiryForOrder(db, order.id),
    db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), notInArray(orderEvents.type, STORE_ONLY_EVENTS)))
      .orderBy(desc(orderEvents.createdAt), desc(orderEvents.id)),
    getSettings(db),
  ]);
  const awaitingTransfer = order.paymentMethod === "bank-transfer" && order.status === "pending_payment";
  return {
    ...source,
    lines: source.lines.map((line) => ({
      ...line,
      keys: keys.get(line.id) ?? [],
      keysWithdrawn: withdrawn.has(line.id),
      keysExpireAt: expiry.get(line.id) ?? null,
    })),
    events: events.map(({ type, message, createdAt }) => ({ type, message, createdAt })),
    /** How to pay, as lines of text (the confirmation e-mail). */
    bankTransferInstructions: awaitingTransfer ? bankTransferText(store, order.number) : null,
    /** While the order is held: within how many hours the buyer was promised an answer (ADR 0035); else null. */
    heldCheckHours: order.status === "held" ? store.holdCheckHours : null,
    /** The same, label by label, and the store's note, for the order page. */
    bankTransfer: awaitingTransfer
      ? { details: bankTransferDetails(store, order.number), note: store.bankNote }
      : null,
  };
}
