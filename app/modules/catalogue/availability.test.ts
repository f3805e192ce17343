import { describe, expect, it } from "vitest";
import { availabilityOf, availabilityText } from "./availability";

describe("what a product's stock promises, in words", () => {
  const text = (
    inStock: number | null,
    waitingOrders: boolean,
    quantity: number,
    kind: "software" | "physical" = "software",
  ) => availabilityText(availabilityOf({ inStock, waitingOrders }, quantity, 99), quantity, kind, 24);

  it("promises keys right after payment only when the pool has them", () => {
    expect(text(8, true, 1)).toBe("In stock: licence key by e-mail right after payment");
    expect(text(8, true, 2)).toBe("In stock: licence keys by e-mail right after payment");
    expect(text(0, true, 1)).toBe("Out of stock: licence key by e-mail within 24 hours of payment");
    expect(text(2, true, 5)).toBe(
      "Only 2 in stock: 2 right after payment, the rest by e-mail within 24 hours of payment",
    );
  });

  it("says a product that takes no waiting orders is unavailable, or how many can be had", () => {
    expect(text(0, false, 1)).toBe("Unavailable: out of stock");
    expect(text(3, false, 5)).toBe("Only 3 available: lower the quantity to 3 or fewer");
    expect(availabilityOf({ inStock: 3, waitingOrders: false }, 1, 99)).toEqual({
      status: "in-stock",
      inStock: 3,
      maxQuantity: 3,
    });
    expect(availabilityOf({ inStock: 0, waitingOrders: false }, 1, 99).maxQuantity).toBe(0);
  });

  it("ships printers and routers without a stock count as in stock", () => {
    expect(text(null, true, 99, "physical")).toBe("In stock: shipped with tracking once paid");
  });

  it("says how many printers or routers are left from the low-stock threshold on, and when they are out", () => {
    const physical = (inStock: number, waitingOrders: boolean, quantity: number) =>
      availabilityText(availabilityOf({ inStock, waitingOrders }, quantity, 99), quantity, "physical", 24, 5);
    expect(physical(12, false, 1)).toBe("In stock: shipped with tracking once paid");
    expect(physical(5, false, 1)).toBe("Only 5 left: shipped with tracking once paid");
    expect(physical(1, false, 1)).toBe("Only 1 left: shipped with tracking once paid");
    expect(physical(0, false, 1)).toBe("Unavailable: out of stock");
    expect(physical(2, false, 3)).toBe("Only 2 available: lower the quantity to 2 or fewer");
    expect(physical(0, true, 1)).toBe("Out of stock: ships within 24 hours of payment");
    expect(physical(2, true, 3)).toBe(
      "Only 2 in stock: 2 shipped once paid, the rest within 24 hours of payment",
    );
  });
});
