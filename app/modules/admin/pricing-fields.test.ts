import { describe, expect, it } from "vitest";
import {
  dateTimeInput,
  formatBasisPoints,
  optionalDateTime,
  parseMoneyInput,
  parsePercent,
} from "./pricing-fields";

describe("the percentage, money and time fields of the discount and tax forms", () => {
  const percent = (text: string) => parsePercent(text, { min: 1, max: 10_000 });

  it("reads percentages into basis points, to the hundredth, within their bounds", () => {
    expect(percent("12.5")).toEqual({ ok: true, value: 1250 });
    expect(percent(" 10 % ")).toEqual({ ok: true, value: 1000 });
    expect(percent("0.01")).toEqual({ ok: true, value: 1 });
    expect(percent("100")).toEqual({ ok: true, value: 10_000 });
    expect(percent("100.00")).toEqual({ ok: true, value: 10_000 });
    expect(parsePercent("8.250", { min: 0, max: 10_000, decimals: 3, what: "rate" })).toEqual({
      ok: true,
      value: 825,
    });
    expect(percent("0")).toEqual({ ok: false, message: "The percentage must be at least 0.01%" });
    expect(percent("100.01")).toEqual({ ok: false, message: "The percentage can be at most 100%" });
    expect(percent("1".repeat(10_000))).toEqual({
      ok: false,
      message: "Enter the percentage as a number, like 10 or 12.5",
    });
    expect(percent("12,5")).toMatchObject({ ok: false });
    expect(percent("0x10")).toMatchObject({ ok: false });
  });

  it("reads amounts of money into cents, with the dollar sign and thousands commas people type", () => {
    const amount = (text: string) =>
      parseMoneyInput(text, { what: "amount", minCents: 1, maxCents: 10_000_000 });
    expect(amount("$1,250.50")).toEqual({ ok: true, value: 125_050 });
    expect(amount("0.01")).toEqual({ ok: true, value: 1 });
    expect(amount("100000")).toEqual({ ok: true, value: 10_000_000 });
    expect(amount("-0.01")).toEqual({ ok: false, message: "The amount must be more than $0.00" });
    expect(amount("0.00")).toEqual({ ok: false, message: "The amount must be more than $0.00" });
    expect(amount("Infinity")).toEqual({
      ok: false,
      message: "Enter the amount in dollars and cents, like 5.00",
    });
  });

  it("writes basis points back as people read them", () => {
    expect([1, 10, 825, 1000, 1250, 10_000].map(formatBasisPoints)).toEqual([
      "0.01%",
      "0.1%",
      "8.25%",
      "10%",
      "12.5%",
      "100%",
    ]);
  });

  it("reads the date-and-time field as UTC, and refuses times that do not exist", () => {
    expect(optionalDateTime.parse("2026-11-27T09:30")).toEqual(new Date("2026-11-27T09:30:00Z"));
    expect(optionalDateTime.parse("")).toBeNull();
    expect(optionalDateTime.parse(undefined)).toBeNull();
    expect(optionalDateTime.safeParse("2026-02-29T10:00").error?.issues[0]?.message).toBe(
      "This date does not exist",
    );
    expect(optionalDateTime.safeParse("2026-11-27T24:00").error?.issues[0]?.message).toBe(
      "This date does not exist",
    );
    expect(optionalDateTime.safeParse("1999-12-31T23:59").error?.issues[0]?.message).toBe(
      "Enter a time between 2000 and 2100",
    );
    expect(dateTimeInput(new Date("2026-11-27T09:30:00Z"))).toBe("2026-11-27T09:30");
    expect(dateTimeInput(null)).toBe("");
  });
});
