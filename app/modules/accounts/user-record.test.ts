import { describe, expect, it } from "vitest";
import { normalizeUserRecord, toIsoTimestamp } from "./user-record";
import { safeRedirect } from "./schemas";

describe("toIsoTimestamp", () => {
  it("turns seconds-based timestamps into ISO text", () => {
    expect(toIsoTimestamp({ seconds: 1_700_000_000, nanoseconds: 123_000_000 })).toBe(
      "2023-11-14T22:13:20.123Z",
    );
    expect(toIsoTimestamp({ _seconds: 1_700_000_000, _nanoseconds: 0 })).toBe("2023-11-14T22:13:20.000Z");
    expect(toIsoTimestamp(1_700_000_000)).toBe("2023-11-14T22:13:20.000Z");
  });

  it("keeps anything else as it is", () => {
    expect(toIsoTimestamp("2024-01-01T00:00:00.000Z")).toBe("2024-01-01T00:00:00.000Z");
    expect(toIsoTimestamp(null)).toBeNull();
    expect(toIsoTimestamp({ when: 1 })).toEqual({ when: 1 });
    expect(toIsoTimestamp({ seconds: "1" })).toEqual({ seconds: "1" });
    expect(toIsoTimestamp({ seconds: 1, nanoseconds: "0" })).toEqual({ seconds: 1, nanoseconds: "0" });
    expect(toIsoTimestamp(Number.NaN)).toBeNaN();
  });
});

describe("normalizeUserRecord", () => {
  const wire = {
    uid: "u1",
    name: "Ada",
    email: "ada@example.com",
    emailVerified: false,
    status: "Active",
    lastLogin: "2024-01-01T00:00:00.000Z",
    lastLogout: null,
    timestamp: "2024-01-01T00:00:00.000Z",
    orders: [
      {
        number: 1001,
        status: "paid",
        totalCents: 4999,
        timestamp: { seconds: 1_700_000_000, nanoseconds: 0 },
      },
    ],
  };

  it("converts each order entry's seconds-based timestamp", () => {
    expect(normalizeUserRecord(wire)!.orders[0]!.timestamp).toBe("2023-11-14T22:13:20.000Z");
  });

  it("refuses what is not a user record", () => {
    expect(normalizeUserRecord({ ...wire, status: "Away" })).toBeNull();
    expect(normalizeUserRecord("user")).toBeNull();
    expect(normalizeUserRecord(null)).toBeNull();
    expect(normalizeUserRecord({ ...wire, uid: "" })).toBeNull();
    expect(normalizeUserRecord({ ...wire, emailVerified: "no" })).toBeNull();
    expect(normalizeUserRecord({ ...wire, lastLogout: 5 })).toBeNull();
    expect(normalizeUserRecord({ ...wire, orders: {} })).toBeNull();
    expect(normalizeUserRecord({ ...wire, orders: [{ ...wire.orders[0], number: 1.5 }] })).toBeNull();
    expect(normalizeUserRecord({ ...wire, orders: [null] })).toBeNull();
  });

  it("keeps only the record's own fields", () => {
    const record = normalizeUserRecord({
      ...wire,
      password: "x",
      orders: [{ ...wire.orders[0], secret: 1 }],
    });
    expect(record).not.toHaveProperty("password");
    expect(record!.orders[0]).not.toHaveProperty("secret");
    expect(normalizeUserRecord(record)).toEqual(record);
  });
});

describe("safeRedirect", () => {
  it("keeps paths on this site and nothing else", () => {
    expect(safeRedirect("/user/orders?x=1")).toBe("/user/orders?x=1");
    for (const bad of ["//evil.example", "https://evil.example", "/\\evil.example", "", null, "/a\nb"]) {
      expect(safeRedirect(bad)).toBe("/user/dashboard");
    }
  });
});
