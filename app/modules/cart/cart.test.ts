import { describe, expect, it } from "vitest";
import {
  addToCart,
  isOrderable,
  itemCount,
  MAX_QUANTITY,
  parseCartRequest,
  quantityProblem,
  removeFromCart,
  sanitizeCart,
  setQuantity,
} from "./cart";

const norton = { groupKey: "Norton", id: "1", name: "Norton 360 Deluxe", priceCents: 7999 };
const hp = { groupKey: "hp", id: "1", name: "HP LaserJet", priceCents: 29999 };

describe("cart lines", () => {
  it("adds products, merging the same product, and counts items", () => {
    let cart = addToCart([], norton);
    cart = addToCart(cart, hp, 2);
    cart = addToCart(cart, norton);
    expect(cart.map((line) => [line.groupKey, line.id, line.quantity])).toEqual([
      ["Norton", "1", 2],
      ["hp", "1", 2],
    ]);
    expect(itemCount(cart)).toBe(4);
  });

  it("tells products apart by group and id, since ids repeat across groups", () => {
    const cart = addToCart(addToCart([], norton), hp);
    expect(cart).toHaveLength(2);
    expect(removeFromCart(cart, { groupKey: "hp", id: "1" }).map((line) => line.groupKey)).toEqual([
      "Norton",
    ]);
  });

  it("never changes a quantity behind the shopper's back: one the store cannot take is kept and named", () => {
    const cart = addToCart([], norton);
    expect(setQuantity(cart, norton, 5)[0]!.quantity).toBe(5);
    for (const [quantity, problem] of [
      [1000, "At most 99 of one product fit in an order"],
      [0, "Enter at least 1, or remove the product"],
      [-1, "Enter at least 1, or remove the product"],
      [2.5, "Enter a whole number"],
      [Number.NaN, "Enter a number from 1 to 99"],
    ] as const) {
      const changed = setQuantity(cart, norton, quantity);
      expect(changed).toHaveLength(1);
      expect(changed[0]!.quantity).toBe(quantity);
      expect(quantityProblem(changed[0]!.quantity)).toBe(problem);
      expect(itemCount(changed)).toBe(0);
    }
    expect(addToCart(cart, norton, 500)[0]!.quantity).toBe(501);
    expect(quantityProblem(MAX_QUANTITY)).toBeNull();
  });

  it("keeps stored lines that name a product, whatever their quantity, and merges duplicates", () => {
    const stored = [
      { groupKey: "Norton", id: "1", name: "N", quantity: 1 },
      { groupKey: "Norton", id: "1", name: "N", quantity: 2 },
      { groupKey: "hp", id: "1", quantity: -3 },
      { groupKey: "hp", id: "2", quantity: "x" },
      "nonsense",
      null,
      { id: "9", quantity: 1 },
    ];
    const lines = sanitizeCart(stored);
    expect(lines.map((line) => [line.groupKey, line.id, line.quantity])).toEqual([
      ["Norton", "1", 3],
      ["hp", "1", -3],
      ["hp", "2", Number.NaN],
    ]);
    expect(lines.filter(isOrderable)).toHaveLength(1);
  });

  it("keeps only the fields of a stored line it can use", () => {
    const [line] = sanitizeCart([
      { groupKey: "Norton", id: "1", name: "x".repeat(301), priceCents: 1.5, quantity: 1, extra: "kept?" },
    ]);
    expect(line).toEqual({ groupKey: "Norton", id: "1", name: "", quantity: 1 });
    expect(
      sanitizeCart([{ groupKey: "Norton", id: "1", name: "N", priceCents: 4999, quantity: 1 }])[0],
    ).toEqual({
      groupKey: "Norton",
      id: "1",
      name: "N",
      priceCents: 4999,
      quantity: 1,
    });
    for (const bad of [
      [],
      ["Norton", "1"],
      { groupKey: "", id: "1" },
      { groupKey: "Norton", id: "x".repeat(101) },
    ])
      expect(sanitizeCart([{ ...(bad as object), quantity: 1 }, bad])).toEqual([]);
  });
});

describe("a cart sent to the server", () => {
  it("is checked line by line, with the line at fault named", () => {
    expect(parseCartRequest([{ groupKey: "Norton", id: "1", quantity: 2 }])).toEqual({
      ok: true,
      lines: [{ groupKey: "Norton", id: "1", quantity: 2 }],
    });
    for (const quantity of [0, -1, 1e9, 1.5, "x", "2", null]) {
      expect(
        parseCartRequest([
          { groupKey: "Norton", id: "1", quantity: 1 },
          { groupKey: "hp", id: "1", quantity },
        ]),
      ).toEqual({
        ok: false,
        message: "Line 2 of your cart: the quantity must be a whole number from 1 to 99",
      });
    }
    expect(parseCartRequest([{ id: "1", quantity: 1 }])).toEqual({
      ok: false,
      message: "Line 1 of your cart is not a product of ours: remove it and add the product again",
    });
    for (const line of [
      { groupKey: "Norton", id: "1", name: null, quantity: 1 },
      { groupKey: "Norton", id: "1", priceCents: -1, quantity: 1 },
      { groupKey: "Norton", id: "1", priceCents: "49.99", quantity: 1 },
      { groupKey: 7, id: "1", quantity: 1 },
      [],
    ])
      expect(parseCartRequest([line])).toMatchObject({
        ok: false,
        message: expect.stringContaining("Line 1"),
      });
    expect(
      parseCartRequest([{ groupKey: "Norton", id: "1", name: "N", priceCents: 4999, quantity: 2, extra: 1 }]),
    ).toEqual({
      ok: true,
      lines: [{ groupKey: "Norton", id: "1", name: "N", priceCents: 4999, quantity: 2 }],
    });
    expect(parseCartRequest("nonsense")).toMatchObject({ ok: false });
    expect(parseCartRequest([])).toEqual({ ok: false, message: "Your cart is empty" });
  });
});
