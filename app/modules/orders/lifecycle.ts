import type { Order, OrderLine, OrderStatus } from "~db/schema/orders";

/**
 * An order's life. Its status (`ORDER_STATUSES`, the column's type in db/schema/orders.ts) says where payment and
 * delivery stand: placed orders wait in pending_payment; paying makes them paid, or fulfilled when nothing is left
 * to deliver, or held when a hold rule matched (ADR 0035) until the store approves (paid or fulfilled) or rejects it
 * (refunded); cancelled and refunded are final. Payment status (refunds in part) is kept beside it on the order.
 *
 * TRANSITIONS is the one table of what may happen to an order: each action, the statuses it starts from, the
 * statuses it can leave the order in, and for the admin's actions the guards that refuse it with the message
 * the admin reads. The admin's order page offers the actions `allowedActions` finds; each action checks
 * `refusalOf` again in its transaction, on the locked row.
 */

export type OrderFacts = Pick<Order, "number" | "status" | "paymentMethod" | "totalCents" | "refundedCents"> &
  Partial<Pick<Order, "holdDecision">>;
export type LineFacts = Pick<OrderLine, "id" | "kind" | "shipmentId" | "refundedAt">;

/**
 * A condition an action needs beyond the order's status: the refusal when the order fails it, nothing when it
 * passes. `lineId` is the line the action is for, when it is for one line.
 */
type Guard = (order: OrderFacts, lines: readonly LineFacts[], lineId?: number) => string | undefined;

type Transition = {
  from: readonly OrderStatus[];
  to: readonly OrderStatus[];
  /** What an order whose status is not in `from` is told: the admin's actions only (the others pass it by). */
  refusedFrom?: (order: OrderFacts, lines: readonly LineFacts[]) => string;
  /** Checked in order once the status allows the action; the first refusal is the answer. */
  guards?: readonly Guard[];
};

/** A physical line neither shipped nor refunded. */
export const isStillToShip = (line: Pick<LineFacts, "kind" | "shipmentId" | "refundedAt">) =>
  line.kind === "physical" && line.shipmentId === null && line.refundedAt === null;

const hasSomethingToShip: Guard = (order, lines) =>
  lines.some((line) => line.kind === "physical") ? undefined : `Order #${order.number} has nothing to ship`;

/** What approving or rejecting an order that is not held says: a decision already taken is named, never redone. */
function notHeld(order: OrderFacts) {
  if (order.holdDecision === "approved") return `Order #${order.number} was already approved`;
  if (order.holdDecision === "rejected") return `Order #${order.number} was already rejected`;
  return `Order #${order.number} is not on hold`;
}

export const TRANSITIONS = {
  /** A payment its provider confirmed (Stripe's signed webhook, the sandbox at checkout); held if a hold rule matches. */
  pay: { from: ["pending_payment"], to: ["paid", "fulfilled", "held"] },
  /** The store records a bank transfer that arrived. */
  markPaid: {
    from: ["pending_payment"],
    to: ["paid", "fulfilled"],
    refusedFrom: (order) => `Order #${order.number} is not waiting for payment`,
    guards: [
      // A card payment is confirmed by Stripe's signed webhook, never by hand.
      (order) =>
        order.paymentMethod === "bank-transfer"
          ? undefined
          : `Order #${order.number} is paid by card: Stripe confirms its payment`,
    ],
  },
  /** The store records a parcel of physical lines (one line, or every line still to ship). */
  ship: {
    from: ["paid"],
    to: ["paid", "fulfilled"],
    refusedFrom: (order, lines) =>
      hasSomethingToShip(order, lines) ?? `Order #${order.number} must be paid and not yet complete to ship`,
    guards: [
      hasSomethingToShip,
      (order, lines, lineId) => {
        const open = lines.filter(isStillToShip);
        if (lineId === undefined)
          return open.length > 0 ? undefined : `Order #${order.number} has nothing left to ship`;
        return open.some((line) => line.id === lineId)
          ? undefined
          : "That line has shipped already, was refunded, or is not a physical item of this order";
      },
    ],
  },
  /** Licence keys that came into a pool reach the paid orders waiting for them (awaitingKeys > 0). */
  deliverKeys: { from: ["paid"], to: ["paid", "fulfilled"] },
  /** Everything still owed has its keys or has shipped: the order is complete (or, with lines refunded, rechecked). */
  settle: { from: ["paid", "fulfilled"], to: ["paid", "fulfilled"] },
  /** The store cancels an unpaid order; a paid one is refunded instead. */
  cancel: {
    from: ["pending_payment"],
    to: ["cancelled"],
    refusedFrom: (order) =>
      order.status === "cancelled"
        ? `Order #${order.number} is already cancelled`
        : `Order #${order.number} is paid: refund it instead`,
  },
  /** An unpaid order older than the settings allow is cancelled by the store's clock. */
  expire: { from: ["pending_payment"], to: ["cancelled"] },
  /** The store gives money back: all that is left (refunded), or a line or an amount (the order stays where it is). */
  refund: {
    from: ["paid", "fulfilled"],
    to: ["paid", "fulfilled", "refunded"],
    refusedFrom: (order) =>
      order.status === "refunded"
        ? `Order #${order.number} is already refunded in full`
        : `Order #${order.number} has not been paid`,
    guards: [
      (order) =>
        order.refundedCents < order.totalCents
          ? undefined
          : `Order #${order.number} is already refunded in full`,
    ],
  },
  /** The store checked a held order and lets it through: its keys are taken from the pool now and e-mailed. */
  approve: {
    from: ["held"],
    to: ["paid", "fulfilled"],
    refusedFrom: notHeld,
  },
  /** The store checked a held order and turns it down: refunded in full, its reserved stock given back. */
  reject: {
    from: ["held"],
    to: ["refunded"],
    refusedFrom: notHeld,
  },
} as const satisfies Record<string, Transition>;

export type OrderAction = keyof typeof TRANSITIONS;

/** Whether an order's status lets the action start; the admin's actions also need `refusalOf` to find nothing. */
export const startsFrom = (action: OrderAction, status: OrderStatus) =>
  (TRANSITIONS[action].from as readonly OrderStatus[]).includes(status);

/** The actions the store takes from the admin's order page, each refused with a message the admin reads. */
export const ADMIN_ACTIONS = [
  "markPaid",
  "ship",
  "cancel",
  "refund",
  "approve",
  "reject",
] as const satisfies readonly OrderAction[];
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/** Why the order refuses the action now; undefined when it allows it. */
export function refusalOf(
  action: AdminAction,
  order: OrderFacts,
  lines: readonly LineFacts[],
  lineId?: number,
): string | undefined {
  const transition: Transition & Required<Pick<Transition, "refusedFrom">> = TRANSITIONS[action];
  if (!startsFrom(action, order.status)) return transition.refusedFrom(order, lines);
  for (const guard of transition.guards ?? []) {
    const refusal = guard(order, lines, lineId);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

/** What the admin can do to an order in its present state: the same guards the actions check under a row lock. */
export const allowedActions = (order: OrderFacts, lines: readonly LineFacts[]) =>
  Object.fromEntries(
    ADMIN_ACTIONS.map((action) => [action, refusalOf(action, order, lines) === undefined]),
  ) as Record<AdminAction, boolean>;
