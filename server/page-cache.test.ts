import { describe, expect, it } from "vitest";
import { notModified, preferredEncoding, renderedEncoding } from "./page-cache";

describe("preferredEncoding", () => {
  it("takes brotli first, then gzip, else the page as it is", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("gzip, deflate")).toBe("gzip");
    expect(preferredEncoding("GZIP")).toBe("gzip");
    expect(preferredEncoding("deflate")).toBe("identity");
    expect(preferredEncoding(undefined)).toBe("identity");
    expect(preferredEncoding("")).toBe("identity");
    expect(preferredEncoding("*")).toBe("br");
  });

  it("never answers in an encoding the client refused with q=0, and follows its weights", () => {
    expect(preferredEncoding("br;q=0, gzip")).toBe("gzip");
    expect(preferredEncoding("br;q=0.0, gzip;q=0")).toBe("identity");
    expect(preferredEncoding("br;q=0.5")).toBe("br");
    expect(preferredEncoding("gzip, br;q=0.5")).toBe("gzip");
    expect(preferredEncoding("*;q=0, gzip")).toBe("gzip");
    // Nothing acceptable, identity included: still the page as it is.
    expect(preferredEncoding("identity;q=0, *;q=0")).toBe("identity");
  });

  it("gives the same answer for a header it has seen before, among many others", () => {
    const values = Array.from({ length: 200 }, (_, i) => `deflate;q=0.${i % 10}, x-${i}`);
    for (const value of values) expect(preferredEncoding(value)).toBe("identity");
    expect(preferredEncoding("gzip, br;q=0")).toBe("gzip");
    for (const value of values) preferredEncoding(value);
    expect(preferredEncoding("gzip, br;q=0")).toBe("gzip");
    expect(preferredEncoding(`${"x".repeat(300)}, br`)).toBe("br");
  });
});

describe("renderedEncoding", () => {
  it("takes gzip first for a page made for one request, brotli only when gzip is not taken", () => {
    expect(renderedEncoding("gzip, deflate, br, zstd")).toBe("gzip");
    expect(renderedEncoding("*")).toBe("gzip");
    expect(renderedEncoding("br")).toBe("br");
    expect(renderedEncoding("gzip;q=0, br")).toBe("br");
    expect(renderedEncoding("br, gzip;q=0.5")).toBe("br");
    expect(renderedEncoding("deflate")).toBe("identity");
    expect(renderedEncoding(undefined)).toBe("identity");
    // Kept pages keep their own order: asking for one order does not change the other's remembered answer.
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
  });
});

describe("notModified", () => {
  const etag = 'W/"abc"';
  const ifNoneMatch = (value: string) => notModified({ "if-none-match": value }, etag);
  it("compares If-None-Match weakly, in a list, and takes *", () => {
    expect(ifNoneMatch('W/"abc"')).toBe(true);
    expect(ifNoneMatch('"abc"')).toBe(true);
    expect(ifNoneMatch('"x", W/"abc"')).toBe(true);
    expect(ifNoneMatch("*")).toBe(true);
    expect(ifNoneMatch('"abd"')).toBe(false);
    expect(ifNoneMatch("")).toBe(false);
    expect(notModified({}, etag)).toBe(false);
  });

  it("sends the page again when the client asks past caches (Cache-Control: no-cache)", () => {
    expect(notModified({ "if-none-match": etag, "cache-control": "no-cache" }, etag)).toBe(false);
    expect(notModified({ "if-none-match": etag, "cache-control": "max-age=0" }, etag)).toBe(true);
  });
});
