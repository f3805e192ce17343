import { describe, expect, it } from "vitest";
import { etagMatches, preferredEncoding } from "./page-cache";

describe("preferredEncoding", () => {
  it("takes brotli first, then gzip, else the page as it is", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("gzip, deflate")).toBe("gzip");
    expect(preferredEncoding("deflate")).toBe("identity");
    expect(preferredEncoding(undefined)).toBe("identity");
    expect(preferredEncoding("")).toBe("identity");
  });

  it("never answers in an encoding the client refused with q=0", () => {
    expect(preferredEncoding("br;q=0, gzip")).toBe("gzip");
    expect(preferredEncoding("br;q=0.0, gzip;q=0")).toBe("identity");
    expect(preferredEncoding("br;q=0.5")).toBe("br");
  });
});

describe("etagMatches", () => {
  const etag = 'W/"abc"';
  it("compares weakly, in a list, and takes *", () => {
    expect(etagMatches('W/"abc"', etag)).toBe(true);
    expect(etagMatches('"abc"', etag)).toBe(true);
    expect(etagMatches('"x", W/"abc"', etag)).toBe(true);
    expect(etagMatches("*", etag)).toBe(true);
    expect(etagMatches('"abd"', etag)).toBe(false);
    expect(etagMatches("", etag)).toBe(false);
  });
});
