import { describe, expect, it } from "vitest";
import { currencyOfCookieHeader } from "./currency";
import {
  convertCents,
  discountPercent,
  formatCount,
  formatMoney,
  parseMoney,
  priceIn,
  rupeeCents,
  toDecimalString,
} from "./money";

describe("money", () => {
  it("parses catalogue prices into cents without floating-point drift", () => {
    expect(parseMoney("49.99")).toBe(4999);
    expect(parseMoney("799.99")).toBe(79999);
    expect(parseMoney("0.10")).toBe(10);
    expect(parseMoney("12.5")).toBe(1250);
    expect(parseMoney("7")).toBe(700);
  });

  it("refuses text that is not an amount", () => {
    for (const bad of ["", "abc", "-1.00", "1.999", "1,00", "1e3"]) {
      expect(() => parseMoney(bad)).toThrow(RangeError);
    }
  });

  it("formats cents back to the file format and for people", () => {
    expect(toDecimalString(4999)).toBe("49.99");
    expect(toDecimalString(5)).toBe("0.05");
    expect(toDecimalString(-50)).toBe("-0.50");
    expect(toDecimalString(-12345)).toBe("-123.45");
    expect(toDecimalString(0)).toBe("0.00");
    expect(formatMoney(4999)).toBe("$49.99");
    expect(formatMoney(123456)).toBe("$1,234.56");
  });

  it("writes dollars as the browser's own currency format does, without building it", () => {
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    const amounts = [
      0, 1, 5, 99, 100, 101, 999, 1000, 99999, 100000, 123456, 99999999, 100000000, 123456789012,
    ];
    for (const cents of [...amounts, ...amounts.slice(1).map((cents) => -cents)]) {
      expect(formatMoney(cents)).toBe(intl.format(cents / 100));
    }
    expect(formatMoney(12.4)).toBe("$0.12");
    expect(formatMoney(-0.4)).toBe("$0.00");
  });

  it("shows a discount only when the original price is higher", () => {
    expect(discountPercent(4999, 9999)).toBe(50);
    expect(discountPercent(4999, 4999)).toBe(0);
    expect(discountPercent(4999, 3999)).toBe(0);
  });

  it("writes rupees as Intl's en-IN format does: thousands, then lakhs and crores", () => {
    const intl = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });
    const amounts = [0, 1, 99, 100, 99999, 100000, 12345600, 123456789, 100000000000, 123456789012];
    for (const paise of [...amounts, ...amounts.slice(1).map((paise) => -paise)])
      expect(formatMoney(paise, "INR")).toBe(intl.format(paise / 100));
    expect(formatMoney(12345600, "INR")).toBe("₹1,23,456.00");
  });

  it("works dollar cents out in paise at the rate, rounded as the rate says", () => {
    const rate = (rounding: "paisa" | "rupee" | "nine") => ({ paisePerUsd: 8350, rounding });
    // $49.99 at ₹83.50 is ₹4,174.165: halves up to the paisa, then to the rupee or up to the next ...9.
    expect(convertCents(4999, "INR", rate("paisa"))).toBe(417417);
    expect(convertCents(4999, "INR", rate("rupee"))).toBe(417400);
    expect(convertCents(4999, "INR", rate("nine"))).toBe(417900);
    // Already ending in 9 stays; a few paise over goes up to the next.
    expect(convertCents(4799, "INR", { paisePerUsd: 10000, rounding: "nine" })).toBe(479900);
    expect(convertCents(4799, "INR", { paisePerUsd: 10001, rounding: "nine" })).toBe(480900);
    expect(convertCents(0, "INR", rate("nine"))).toBe(0);
    expect(convertCents(4999, "USD", rate("nine"))).toBe(4999);
  });

  it("takes the owner's own rupee price where set, the rate's elsewhere, and the price before the discount at the rate", () => {
    const rate = { paisePerUsd: 8350, rounding: "rupee" } as const;
    const item = { priceCents: 4999, originalPriceCents: 6999, inrPriceCents: 399_900 };
    expect(priceIn(item, "INR", rate)).toEqual({ priceCents: 399_900, originalPriceCents: 584_400 });
    expect(priceIn(item, "USD", rate)).toEqual({ priceCents: 4999, originalPriceCents: 6999 });
    expect(priceIn({ ...item, inrPriceCents: null }, "INR", rate)).toEqual({
      priceCents: 417_400,
      originalPriceCents: 584_400,
    });
    // An own price above the converted original: no discount is shown for it.
    const dear = priceIn({ ...item, inrPriceCents: 600_000 }, "INR", rate);
    expect(discountPercent(dear.priceCents, dear.originalPriceCents)).toBe(0);
    // A form's field: not sent keeps the stored price, empty clears it, text is parsed.
    expect([rupeeCents(undefined), rupeeCents(null), rupeeCents("4199.5")]).toEqual([
      undefined,
      null,
      419_950,
    ]);
  });

  it("reads the shopper's currency from the cookie header: dollars unless it names rupees exactly", () => {
    expect(currencyOfCookieHeader(undefined)).toBe("USD");
    expect(currencyOfCookieHeader("a=1; currency=INR; b=2")).toBe("INR");
    expect(currencyOfCookieHeader("currency=USD")).toBe("USD");
    for (const forged of ["currency=inr", "currency=EUR", "currency=", "xcurrency=INR", "currency=INR%00"])
      expect(currencyOfCookieHeader(forged)).toBe("USD");
  });
});

describe("formatCount", () => {
  it("groups digits as Intl.NumberFormat for en-US does", () => {
    for (const count of [0, 1, 12, 999, 1000, 1234, 99999, 100000, 1234567, 1000000000, -1234])
      expect(formatCount(count)).toBe(count.toLocaleString("en-US"));
  });
});
