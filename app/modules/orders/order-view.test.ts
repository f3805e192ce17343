import { describe, expect, it } from "vitest";
import type { Address } from "~db/schema/orders";
import { address as checkoutAddress } from "../../../tests/support/orders";
import { addressLines } from "~/lib/address";
import { type EmailOrder, paymentReceiptEmail } from "./emails/order-emails";
import { adminOrderView, buyerOrderView, orderView, type StoredLine, type StoredOrder } from "./order-view";

const address: Address = { ...checkoutAddress, name: "Ann Example", region: "NY", phone: "555-0100" };

const at = (iso: string) => new Date(iso);
const cgst = { name: "CGST", rateBasisPoints: 900, taxableCents: 9000, taxCents: 810 };

const order = (changes: Partial<StoredOrder> = {}): StoredOrder => ({
  number: 1042,
  currency: "USD",
  email: "ann@example.com",
  userId: null,
  status: "paid",
  paymentStatus: "paid",
  paymentMethod: "stripe",
  paymentReference: "pi_123",
  isTest: false,
  cancelReason: "",
  subtotalCents: 15000,
  shippingCents: 500,
  totalCents: 15310,
  discountCode: "SAVE10",
  discountCents: 1000,
  taxBreakdown: [cgst],
  taxCents: 810,
  pricesIncludeTax: false,
  buyerTaxId: "",
  billingAddress: address,
  shippingAddress: { ...address, name: "Bob Example" },
  awaitingKeys: 0,
  trackingNumber: "1Z 999",
  refundedCents: 0,
  customerNote: "",
  holdReasons: [],
  holdDecision: null,
  createdAt: at("2025-03-01T10:00:00Z"),
  updatedAt: at("2025-03-02T11:00:00Z"),
  paidAt: at("2025-03-01T10:05:00Z"),
  ...changes,
});

const software: StoredLine = {
  id: 1,
  name: "Antivirus Plus",
  kind: "software",
  quantity: 2,
  unitPriceCents: 5000,
  lineTotalCents: 10000,
  discountCents: 1000,
  taxes: [cgst],
  taxCents: 810,
  shipmentId: null,
  refundedAt: null,
};
const printer: StoredLine = {
  id: 2,
  name: "Office Printer",
  kind: "physical",
  quantity: 1,
  unitPriceCents: 5000,
  lineTotalCents: 5000,
  discountCents: 0,
  taxes: [],
  taxCents: 0,
  shipmentId: 7,
  refundedAt: null,
};
const shipment = {
  id: 7,
  carrier: "ups",
  trackingNumber: "1Z 999",
  trackingUrl: null,
  createdAt: at("2025-03-02T11:00:00Z"),
};
const invoice = {
  kind: "invoice" as const,
  number: "INV-000001",
  filename: "INV-000001.pdf",
  issuedAt: "2025-03-01T10:05:00.000Z",
  totalCents: 15310,
};

describe("orderView", () => {
  const view = orderView({
    order: order(),
    lines: [{ ...software, keys: ["AAAA-1", "AAAA-2"] }, printer],
    shipments: [shipment],
    documents: [invoice],
  });

  it("gives the number, dates as ISO strings, the status label and the totals", () => {
    expect(view).toMatchObject({
      number: 1042,
      status: "paid",
      statusLabel: "Paid",
      placedAt: "2025-03-01T10:00:00.000Z",
      paidAt: "2025-03-01T10:05:00.000Z",
      subtotalCents: 15000,
      discountCode: "SAVE10",
      discountCents: 1000,
      taxes: [cgst],
      totalCents: 15310,
      refundedCents: 0,
      cancelReason: "",
      ships: true,
      invoiceDue: true,
      documents: [invoice],
    });
    expect(view.billingAddress.name).toBe("Ann Example");
    expect(view.shippingAddress!.name).toBe("Bob Example");
  });

  it("gives each line its price, what it was paid, where it stands and its parcel", () => {
    expect(view.lines[0]).toMatchObject({
      name: "Antivirus Plus",
      unitPriceCents: 5000,
      lineTotalCents: 10000,
      paidCents: 10000 - 1000 + 810,
      state: "delivered keys",
      shipment: null,
    });
    expect(view.lines[1]).toMatchObject({
      paidCents: 5000,
      state: "shipped",
      shipment: {
        carrier: "UPS",
        trackingNumber: "1Z 999",
        link: "https://www.ups.com/track?tracknum=1Z999",
      },
    });
  });

  it("says why a cancelled order was cancelled, and nothing is delivered of it", () => {
    const cancelled = orderView({
      order: order({ status: "cancelled", cancelReason: "Expired unpaid", paidAt: null }),
      lines: [software],
      shipments: [],
      documents: [],
    });
    expect(cancelled.statusLabel).toBe("Cancelled");
    expect(cancelled.cancelReason).toBe("Expired unpaid");
    expect(cancelled.lines[0]!.state).toBe("cancelled");
    expect(cancelled.invoiceDue).toBe(false);
    expect(cancelled.ships).toBe(false);
    // A reason kept from before is not shown once the order moved on.
    expect(
      orderView({ order: order({ cancelReason: "old" }), lines: [], shipments: [], documents: [] })
        .cancelReason,
    ).toBe("");
  });

  it("counts a line's keys to follow from its keys or their hints, and a refund before them", () => {
    const lines = (line: StoredLine) =>
      orderView({ order: order(), lines: [line], shipments: [], documents: [] }).lines[0]!.state;
    expect(lines({ ...software, keys: ["AAAA-1"] })).toBe("keys to follow");
    expect(lines({ ...software, keyHints: ["…A-1", "…A-2"] })).toBe("delivered keys");
    expect(lines({ ...software, refundedAt: at("2025-03-03T00:00:00Z") })).toBe("refunded");
    expect(lines({ ...printer, shipmentId: null })).toBe("awaiting shipment");
  });
});

describe("buyerOrderView", () => {
  const source = {
    order: order(),
    lines: [
      { ...software, keys: ["AAAA-1", "AAAA-2"] },
      { ...printer, keys: [] },
    ],
    shipments: [shipment],
    documents: [],
    events: [
      { type: "keys_resent", message: "", createdAt: at("2025-03-03T09:00:00Z") },
      { type: "paid", message: "Paid by card", createdAt: at("2025-03-01T10:05:00Z") },
      { type: "something_new", message: "", createdAt: at("2025-03-01T10:00:00Z") },
    ],
    bankTransfer: null,
  };
  const view = buyerOrderView(source);

  it("gives the buyer their keys and the history in their words", () => {
    expect(view.lines.map((line) => line.keys)).toEqual([["AAAA-1", "AAAA-2"], []]);
    expect(view.hasKeys).toBe(true);
    expect(view.history).toEqual([
      { message: "Licence keys e-mailed again", createdAt: "2025-03-03T09:00:00.000Z" },
      { message: "Paid by card", createdAt: "2025-03-01T10:05:00.000Z" },
      { message: "Order updated", createdAt: "2025-03-01T10:00:00.000Z" },
    ]);
  });

  it("keeps what only the store reads off the buyer's page", () => {
    const text = JSON.stringify(view);
    expect(text).not.toContain("pi_123");
    expect(view).not.toHaveProperty("paymentReference");
    expect(view).not.toHaveProperty("userId");
    expect(view).not.toHaveProperty("notes");
  });

  it("is what the order e-mails print, once their links and the store are added", () => {
    const email: EmailOrder = {
      ...view,
      link: "https://shop.example.com/order/1042?key=k",
      lookupLink: "https://shop.example.com/order/lookup?number=1042",
      storeName: "Example Store",
    };
    expect(email.lines[0]!.keys).toEqual(["AAAA-1", "AAAA-2"]);
    expect(email.billingAddress).toBe(address);
    // Printed: the lines with their keys, the totals and both addresses, as the page has them.
    const receipt = paymentReceiptEmail(email).text;
    expect(receipt).toContain("2 × Antivirus Plus — $100.00");
    expect(receipt).toContain("Licence keys: AAAA-1, AAAA-2");
    expect(receipt).toContain("Discount (SAVE10): −$10.00");
    expect(receipt).toContain(
      `Billing address:\nAnn Example\n${addressLines(view.billingAddress).join("\n")}`,
    );
    expect(receipt).toContain(
      `Shipping address:\nBob Example\n${addressLines(view.shippingAddress!).join("\n")}`,
    );
  });
});

describe("adminOrderView", () => {
  const view = adminOrderView({
    order: order({ status: "paid", userId: null }),
    lines: [
      { ...software, keyHints: ["…A-1"], revokedHints: ["…A-9"] },
      { ...printer, shipmentId: null },
    ],
    shipments: [],
    documents: [],
    events: [
      { id: 1, type: "placed", actor: "customer", message: "", createdAt: at("2025-03-01T10:00:00Z") },
      {
        id: 2,
        type: "paid",
        actor: "admin:ann@example.com",
        message: "Transfer in",
        createdAt: at("2025-03-01T10:05:00Z"),
      },
      {
        id: 3,
        type: "customer-deleted",
        actor: "system",
        message: "",
        createdAt: at("2025-03-04T00:00:00Z"),
      },
      { id: 4, type: "refunded", actor: "stripe", message: "", createdAt: at("2025-03-05T00:00:00Z") },
    ],
    refunds: [],
    notes: [
      {
        id: 5,
        body: "Called them",
        createdBy: "admin:ann@example.com",
        createdAt: at("2025-03-02T00:00:00Z"),
      },
    ],
  });

  it("gives key hints, never keys, and the history with who did what", () => {
    expect(view.lines[0]).toMatchObject({
      keyHints: ["…A-1"],
      revokedHints: ["…A-9"],
      state: "keys to follow",
    });
    expect(view.history.map(({ label, message, by }) => [label, message, by])).toEqual([
      ["Placed", "", "the customer"],
      ["Paid", "Transfer in", "ann@example.com"],
      ["Customer's account deleted", "", "the store"],
      ["Refunded", "", "Stripe"],
    ]);
    expect(view.accountDeleted).toBe(true);
    expect(view.notes).toEqual([
      {
        id: 5,
        body: "Called them",
        createdBy: "admin:ann@example.com",
        createdAt: "2025-03-02T00:00:00.000Z",
      },
    ]);
  });

  it("offers the actions the order's state allows", () => {
    expect(view.actions).toEqual({
      markPaid: false,
      ship: true,
      cancel: false,
      refund: true,
      approve: false,
      reject: false,
    });
  });

  it("lists each parcel with what went in it", () => {
    const shipped = adminOrderView({
      order: order(),
      lines: [printer],
      shipments: [shipment],
      documents: [],
      events: [],
      refunds: [],
      notes: [],
    });
    expect(shipped.shipments).toEqual([
      {
        id: 7,
        carrier: "UPS",
        trackingNumber: "1Z 999",
        link: "https://www.ups.com/track?tracknum=1Z999",
        lines: ["1 × Office Printer"],
        createdAt: "2025-03-02T11:00:00.000Z",
      },
    ]);
  });
});
