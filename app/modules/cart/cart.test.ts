import { describe, expect, it } from "vitest";
import { addToCart, itemCount, MAX_QUANTITY, removeFromCart, sanitizeCart, setQuantity } from "./cart";

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

  it("keeps quantities whole and between 1 and the maximum", () => {
    const cart = addToCart([], norton);
    expect(setQuantity(cart, norton, 5)[0]!.quantity).toBe(5);
    expect(setQuantity(cart, norton, 1000)[0]!.quantity).toBe(MAX_QUANTITY);
    expect(setQuantity(cart, norton, 0)).toEqual([]);
    expect(setQuantity(cart, norton, 2.5)).toEqual([]);
    expect(addToCart(cart, norton, 500)[0]!.quantity).toBe(MAX_QUANTITY);
  });

  it("drops malformed stored lines and merges duplicates", () => {
    const stored = [
      { groupKey: "Norton", id: "1", name: "N", quantity: 1 },
      { groupKey: "Norton", id: "1", name: "N", quantity: 2 },
      { groupKey: "hp", id: "1", quantity: -3 },
      { groupKey: "hp", id: "2", quantity: 1.5 },
      "nonsense",
      null,
      { id: "9", quantity: 1 },
    ];
    expect(sanitizeCart(stored)).toEqual([{ groupKey: "Norton", id: "1", name: "N", quantity: 3 }]);
  });
});
