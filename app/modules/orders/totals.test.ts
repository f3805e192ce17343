import { describe, expect, it } from "vitest";
import { refundRows } from "./totals";

describe("an order's totals after refunds", () => {
  it("says nothing while nothing was refunded", () => {
    expect(refundRows({ totalCents: 4999, refundedCents: 0 })).toEqual([]);
  });

  it("gives what was refunded and the net, down to nothing once everything was", () => {
    expect(refundRows({ totalCents: 123456, refundedCents: 2150 })).toEqual([
      { key: "refunded", label: "Refunded", amount: "−$21.50", cents: -2150 },
      { key: "net", label: "Net after refunds", amount: "$1,213.06", cents: 121306 },
    ]);
    expect(refundRows({ totalCents: 4999, refundedCents: 4999 }).at(-1)).toMatchObject({
      amount: "$0.00",
      cents: 0,
    });
  });
});
