import { describe, expect, it } from "vitest";
import { ORDER_STATUSES, type OrderStatus } from "~db/schema/orders";
import {
  ADMIN_ACTIONS,
  allowedActions,
  type LineFacts,
  type OrderAction,
  type OrderFacts,
  refusalOf,
  startsFrom,
  TRANSITIONS,
} from "./lifecycle";

const order = (facts: Partial<OrderFacts> = {}): OrderFacts => ({
  number: 1001,
  status: "pending_payment",
  paymentMethod: "bank-transfer",
  totalCents: 10_000,
  refundedCents: 0,
  ...facts,
});
const printer: LineFacts = { id: 1, kind: "physical", shipmentId: null, refundedAt: null };
const software: LineFacts = { id: 2, kind: "software", shipmentId: null, refundedAt: null };
const shipped: LineFacts = { id: 3, kind: "physical", shipmentId: 7, refundedAt: null };

describe("the order lifecycle's transitions", () => {
  it("allows each of the admin's actions from exactly the statuses the table names", () => {
    const expected: Record<(typeof ADMIN_ACTIONS)[number], OrderStatus[]> = {
      markPaid: ["pending_payment"],
      ship: ["paid"],
      cancel: ["pending_payment"],
      refund: ["paid", "fulfilled"],
      approve: ["held"],
      reject: ["held"],
    };
    for (const action of ADMIN_ACTIONS) {
      expect(TRANSITIONS[action].from).toEqual(expected[action]);
      // An order every other guard lets through: a bank transfer, nothing refunded, a printer still to ship.
      const allowedFrom = ORDER_STATUSES.filter(
        (status) => refusalOf(action, order({ status }), [printer]) === undefined,
      );
      expect(allowedFrom, action).toEqual(expected[action]);
    }
  });

  it("starts nothing from a cancelled or refunded order, and every status is reached by some action", () => {
    for (const status of ["cancelled", "refunded"] as const)
      expect(
        (Object.keys(TRANSITIONS) as OrderAction[]).filter((action) => startsFrom(action, status)),
      ).toEqual([]);
    const reached = new Set(Object.values(TRANSITIONS).flatMap((transition) => transition.to));
    expect(ORDER_STATUSES.filter((status) => status !== "pending_payment" && !reached.has(status))).toEqual(
      [],
    );
  });

  it("refuses with the message of the first guard the order fails", () => {
    expect(refusalOf("markPaid", order({ status: "paid" }), [])).toBe(
      "Order #1001 is not waiting for payment",
    );
    expect(refusalOf("markPaid", order({ paymentMethod: "stripe" }), [])).toBe(
      "Order #1001 is paid by card: Stripe confirms its payment",
    );
    expect(refusalOf("cancel", order({ status: "cancelled" }), [])).toBe("Order #1001 is already cancelled");
    expect(refusalOf("cancel", order({ status: "fulfilled" }), [])).toBe(
      "Order #1001 is paid: refund it instead",
    );
    expect(refusalOf("refund", order({ status: "refunded" }), [])).toBe(
      "Order #1001 is already refunded in full",
    );
    expect(refusalOf("refund", order(), [])).toBe("Order #1001 has not been paid");
    expect(refusalOf("refund", order({ status: "paid", refundedCents: 10_000 }), [])).toBe(
      "Order #1001 is already refunded in full",
    );
    // What the order holds comes before where it is: software alone has nothing to ship, paid or not.
    expect(refusalOf("ship", order(), [software])).toBe("Order #1001 has nothing to ship");
    expect(refusalOf("ship", order({ status: "paid" }), [software])).toBe("Order #1001 has nothing to ship");
    expect(refusalOf("ship", order(), [printer])).toBe(
      "Order #1001 must be paid and not yet complete to ship",
    );
    expect(refusalOf("ship", order({ status: "paid" }), [shipped, software])).toBe(
      "Order #1001 has nothing left to ship",
    );
  });

  it("ships one line only while that line is still to ship", () => {
    const paid = order({ status: "paid" });
    expect(refusalOf("ship", paid, [printer, shipped], printer.id)).toBeUndefined();
    for (const lineId of [shipped.id, software.id, 99])
      expect(refusalOf("ship", paid, [printer, shipped, software], lineId)).toBe(
        "That line has shipped already, was refunded, or is not a physical item of this order",
      );
  });

  it("offers the admin the actions the guards allow", () => {
    const none = {
      markPaid: false,
      ship: false,
      cancel: false,
      refund: false,
      approve: false,
      reject: false,
    };
    expect(allowedActions(order(), [software])).toEqual({ ...none, markPaid: true, cancel: true });
    expect(allowedActions(order({ paymentMethod: "stripe" }), [printer])).toEqual({ ...none, cancel: true });
    expect(allowedActions(order({ status: "paid" }), [printer, software])).toEqual({
      ...none,
      ship: true,
      refund: true,
    });
    expect(allowedActions(order({ status: "paid" }), [shipped, software])).toEqual({ ...none, refund: true });
    expect(allowedActions(order({ status: "fulfilled", refundedCents: 2_500 }), [shipped])).toEqual({
      ...none,
      refund: true,
    });
    expect(allowedActions(order({ status: "paid", refundedCents: 10_000 }), [printer])).toEqual({
      ...none,
      ship: true,
    });
    for (const status of ["cancelled", "refunded"] as const)
      expect(allowedActions(order({ status }), [printer, software])).toEqual(none);
    // A held order is decided, not shipped or refunded piecemeal.
    expect(allowedActions(order({ status: "held" }), [printer, software])).toEqual({
      ...none,
      approve: true,
      reject: true,
    });
  });

  it("names a hold decision already taken when it is asked for again", () => {
    expect(refusalOf("approve", order({ status: "fulfilled", holdDecision: "approved" }), [])).toBe(
      "Order #1001 was already approved",
    );
    expect(refusalOf("approve", order({ status: "refunded", holdDecision: "rejected" }), [])).toBe(
      "Order #1001 was already rejected",
    );
    expect(refusalOf("reject", order({ status: "paid", holdDecision: "approved" }), [])).toBe(
      "Order #1001 was already approved",
    );
    expect(refusalOf("reject", order({ status: "paid" }), [])).toBe("Order #1001 is not on hold");
  });
});
