import { describe, expect, it } from "vitest";
import { discountPercent, formatMoney, parseMoney, toDecimalString } from "./money";

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
});
