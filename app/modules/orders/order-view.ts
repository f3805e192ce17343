import { lineMargin, orderMargin } from "./margins";
import type {
  Order,
  orderEvents,
  OrderLine,
  orderNotes,
  orderRefunds,
  OrderShipment,
} from "~db/schema/orders";
import { type DocumentEntry, linePaidCents } from "./invoice-document";
import { ORDER_STATUS_LABELS } from "./labels";
import { lineReviewable } from "./reviewable";
import { nameWithVariant } from "~/modules/catalogue/variants";
import { allowedActions } from "./lifecycle";
import { carrierName, lineState, trackingLink } from "./tracking";

/**
 * One way to show an order: the pure step from what the store keeps (the order row, its lines with their keys or
 * key hints, its shipments, refunds, notes, events and documents) to what a page shows. `orderView` is what every
 * reader of an order sees alike (number, dates, status, lines with prices and delivery, totals, addresses, documents);
 * `buyerOrderView` adds what the buyer reads (the keys themselves, the history in their words), `adminOrderView`
 * what only the store reads (payment details, key hints, parcels, refunds, notes, who did what, the actions left).
 *
 * Dates are ISO strings, so a view goes to the browser as it is. Its totals and addresses are the order's own fields
 * (subtotalCents, taxes, billingAddress...): a buyer's view is what the order e-mails and the invoice print.
 */

export type StoredOrder = Pick<
  Order,
  | "number"
  | "email"
  | "userId"
  | "status"
  | "paymentStatus"
  | "paymentMethod"
  | "paymentReference"
  | "isTest"
  | "cancelReason"
  | "subtotalCents"
  | "shippingCents"
  | "totalCents"
  | "currency"
  | "discountCode"
  | "discountCents"
  | "taxBreakdown"
  | "taxCents"
  | "pricesIncludeTax"
  | "buyerTaxId"
  | "billingAddress"
  | "shippingAddress"
  | "awaitingKeys"
  | "trackingNumber"
  | "refundedCents"
  | "customerNote"
  | "holdReasons"
  | "holdDecision"
  | "createdAt"
  | "updatedAt"
  | "paidAt"
>;

/** A line as stored, with the keys it delivered (the buyer's view) or their hints (the admin's). */
export type StoredLine = Pick<
  OrderLine,
  | "id"
  | "name"
  | "kind"
  | "quantity"
  | "unitPriceCents"
  | "lineTotalCents"
  | "discountCents"
  | "taxes"
  | "taxCents"
  | "shipmentId"
  | "refundedAt"
> &
  Partial<Pick<OrderLine, "variantLabel" | "productId">> & {
    keys?: string[];
    /** A refund withdrew keys the line had (the buyer's view). */
    keysWithdrawn?: boolean;
    keyHints?: string[];
    revokedHints?: string[];
    replacedHints?: string[];
    /** What each of the line's keys cost (the admin's view); null: imported without a cost. */
    keyCosts?: Array<number | null>;
    /** When the line's keys expire (the buyer's view); null or absent: perpetual, or no keys yet. */
    keysExpireAt?: Date | null;
  };

type OrderEvent = typeof orderEvents.$inferSelect;
type StoredShipment = Pick<OrderShipment, "id" | "carrier" | "trackingNumber" | "trackingUrl" | "createdAt">;
type StoredEvent = Pick<OrderEvent, "type" | "message" | "createdAt"> &
  Partial<Pick<OrderEvent, "id" | "actor">>;

export type OrderSource = {
  order: StoredOrder;
  lines: StoredLine[];
  shipments: StoredShipment[];
  /** The order's invoice and credit notes (invoices.server.ts `orderDocuments`). */
  documents: DocumentEntry[];
};

/** What every reader of an order sees: the buyer's page, the admin's, the e-mails and the invoice alike. */
export function orderView({ order, lines, shipments, documents }: OrderSource) {
  const paidAt = order.paidAt?.toISOString() ?? null;
  return {
    number: order.number,
    email: order.email,
    status: order.status,
    statusLabel: ORDER_STATUS_LABELS[order.status] ?? order.status,
    /** Why a cancelled order was cancelled; '' for any other. */
    cancelReason: order.status === "cancelled" ? order.cancelReason : "",
    paymentMethod: order.paymentMethod,
    placedAt: order.createdAt.toISOString(),
    paidAt,
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    totalCents: order.totalCents,
    /** What every amount of the order is in. */
    currency: order.currency,
    discountCode: order.discountCode,
    discountCents: order.discountCents,
    taxes: order.taxBreakdown,
    taxCents: order.taxCents,
    pricesIncludeTax: order.pricesIncludeTax,
    refundedCents: order.refundedCents,
    buyerTaxId: order.buyerTaxId,
    billingAddress: order.billingAddress,
    /** Null when nothing ships. */
    shippingAddress: order.shippingAddress,
    awaitingKeys: order.awaitingKeys,
    /** The note the store left for the buyer; '' for none. */
    customerNote: order.customerNote,
    lines: lines.map((line) => {
      const shipment = shipments.find((candidate) => candidate.id === line.shipmentId);
      return {
        id: line.id,
        // The variant bought is part of what the line is, wherever it is read: "Norton 360 (1 device, 1 year)".
        name: nameWithVariant(line.name, line.variantLabel),
        kind: line.kind,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
        lineTotalCents: line.lineTotalCents,
        discountCents: line.discountCents,
        taxes: line.taxes,
        /** What the buyer paid for it, and so what refunding it gives back. */
        paidCents: linePaidCents(line, order.pricesIncludeTax),
        state: lineState({
          kind: line.kind,
          quantity: line.quantity,
          refunded: line.refundedAt !== null,
          shipped: line.shipmentId !== null,
          keyCount: (line.keys ?? line.keyHints ?? []).length,
          cancelled: order.status === "cancelled",
        }),
        /** The parcel it went in: carrier, tracking number and the page that follows it. */
        shipment: shipment ? parcel(shipment) : null,
      };
    }),
    /** Whether anything of the order ships (else there is nothing to track). */
    ships: lines.some((line) => line.kind === "physical"),
    documents,
    /** A paid order has an invoice, issued on its first download when it was paid before invoices existed. */
    invoiceDue: paidAt !== null,
  };
}

export type OrderView = ReturnType<typeof orderView>;

const parcel = (shipment: StoredShipment) => ({
  carrier: carrierName(shipment.carrier),
  trackingNumber: shipment.trackingNumber,
  link: trackingLink(shipment),
});

/** What a history entry without a message of its own says to the buyer. */
const BUYER_EVENT_LABELS: Record<string, string> = {
  placed: "Order placed",
  paid: "Payment received",
  keys_delivered: "Licence keys delivered",
  keys_waiting: "Licence keys to follow by e-mail",
  shipped: "Shipped",
  fulfilled: "Everything delivered",
  cancelled: "Cancelled",
  expired: "Expired unpaid",
  refunded: "Refunded",
  keys_resent: "Licence keys e-mailed again",
  key_replaced: "A licence key was replaced",
  claimed: "Added to the customer's account",
  link_renewed: "A new link to this order was e-mailed",
  held: "Being checked before delivery",
  approved: "Checked and approved",
  rejected: "Not approved after checking",
};

/**
 * The order as its buyer reads it: the licence keys themselves, the history in their words (the source's events
 * are those the buyer may see, newest first), and how to pay a bank transfer still due.
 */
export function buyerOrderView(
  source: OrderSource & {
    events: StoredEvent[];
    /** The store's bank details and note, while a bank transfer is still due; null otherwise. */
    bankTransfer: { details: Array<{ label: string; value: string }>; note: string } | null;
    /** A held order: the hours within which the buyer was promised an answer (ADR 0035); null or absent otherwise. */
    heldCheckHours?: number | null;
  },
) {
  const view = orderView(source);
  return {
    ...view,
    lines: view.lines.map((line, index) => ({
      ...line,
      keys: source.lines[index]!.keys ?? [],
      /** Keys it had were withdrawn by a refund (false when none ever reached it). */
      keysWithdrawn: source.lines[index]!.keysWithdrawn ?? false,
      /** When its keys stop working (ISO); null: perpetual, or no keys yet. */
      keysExpireAt: source.lines[index]!.keysExpireAt?.toISOString() ?? null,
      /** The product its buyer may review from here (a paid, unrefunded line of a product still kept); else null. */
      reviewProductId: lineReviewable(view.status, source.lines[index]!.refundedAt !== null)
        ? (source.lines[index]!.productId ?? null)
        : null,
    })),
    history: source.events.map((event) => ({
      message: event.message || BUYER_EVENT_LABELS[event.type] || "Order updated",
      createdAt: event.createdAt.toISOString(),
    })),
    /** Whether the buyer can ask for the keys again. */
    hasKeys: source.lines.some((line) => (line.keys ?? []).length > 0),
    bankTransfer: source.bankTransfer,
    heldCheckHours: source.heldCheckHours ?? null,
  };
}

export type BuyerOrderView = ReturnType<typeof buyerOrderView>;

/** Each kind of event as the admin's history names it. */
const ADMIN_EVENT_LABELS: Record<string, string> = {
  placed: "Placed",
  paid: "Paid",
  keys_delivered: "Keys delivered",
  keys_waiting: "Waiting for keys",
  shipped: "Shipped",
  fulfilled: "Complete",
  cancelled: "Cancelled",
  expired: "Expired unpaid",
  refunded: "Refunded",
  payment_failed: "Payment failed",
  invoice_issued: "Invoice issued",
  credit_note_issued: "Credit note issued",
  stock_released: "Back in stock",
  code_released: "Discount code given back",
  keys_resent: "Keys e-mailed again",
  key_replaced: "Key replaced",
  link_renewed: "New order link sent",
  claimed: "Added to an account",
  "customer-deleted": "Customer's account deleted",
  held: "On hold",
  approved: "Hold approved",
  rejected: "Hold rejected",
};

/** "admin:ann@example.com" reads as the admin's address; the others as who they are. */
function actorLabel(actor: string) {
  if (actor.startsWith("admin:")) return actor.slice("admin:".length);
  return (
    { customer: "the customer", system: "the store", stripe: "Stripe", sandbox: "the test payment" }[actor] ??
    actor
  );
}

/**
 * The order as the admin reads it: payment details, key hints (never the keys), each parcel with what went in it,
 * refunds, internal notes, the whole history with who did what, and the actions the order's state allows.
 */
export function adminOrderView(
  source: OrderSource & {
    events: Array<StoredEvent & Pick<OrderEvent, "id" | "actor">>;
    refunds: Array<
      Pick<
        typeof orderRefunds.$inferSelect,
        "id" | "amountCents" | "kind" | "reason" | "createdBy" | "createdAt"
      >
    >;
    notes: Array<Pick<typeof orderNotes.$inferSelect, "id" | "body" | "createdBy" | "createdAt">>;
  },
) {
  const { order, lines } = source;
  const view = orderView(source);
  // Keys cost dollars: a margin is worked out for orders in dollars only, never dollars taken from rupees.
  const margins = lines.map((line) =>
    order.currency === "USD" ? lineMargin(line, order.pricesIncludeTax, line.keyCosts ?? []) : null,
  );
  return {
    ...view,
    userId: order.userId,
    isTest: order.isTest,
    paymentStatus: order.paymentStatus,
    paymentReference: order.paymentReference,
    trackingNumber: order.trackingNumber,
    updatedAt: order.updatedAt.toISOString(),
    lines: view.lines.map((line, index) => ({
      ...line,
      keyHints: lines[index]!.keyHints ?? [],
      revokedHints: lines[index]!.revokedHints ?? [],
      replacedHints: lines[index]!.replacedHints ?? [],
      margin: margins[index]!,
    })),
    margin: orderMargin(margins),
    shipments: source.shipments.map((shipment) => ({
      id: shipment.id,
      ...parcel(shipment),
      lines: lines
        .filter((line) => line.shipmentId === shipment.id)
        .map((line) => `${line.quantity} × ${line.name}`),
      createdAt: shipment.createdAt.toISOString(),
    })),
    refunds: source.refunds.map((refund) => ({
      id: refund.id,
      amountCents: refund.amountCents,
      kind: refund.kind,
      reason: refund.reason,
      createdBy: refund.createdBy,
      createdAt: refund.createdAt.toISOString(),
    })),
    notes: source.notes.map((note) => ({
      id: note.id,
      body: note.body,
      createdBy: note.createdBy,
      createdAt: note.createdAt.toISOString(),
    })),
    history: source.events.map((event) => ({
      id: event.id,
      type: event.type,
      label: ADMIN_EVENT_LABELS[event.type] ?? event.type,
      message: event.message,
      by: actorLabel(event.actor),
      createdAt: event.createdAt.toISOString(),
    })),
    /** Why the order was held (empty: never held), and what the store decided. */
    holdReasons: order.holdReasons,
    holdDecision: order.holdDecision,
    /** The customer deleted their account since: the order keeps no link to it. */
    accountDeleted: source.events.some((event) => event.type === "customer-deleted"),
    actions: allowedActions(order, lines),
  };
}

export type AdminOrderView = ReturnType<typeof adminOrderView>;
