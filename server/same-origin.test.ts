import { describe, expect, it } from "vitest";
import { crossSiteReason, isUnsafeMethod } from "./same-origin";

const store = "https://shop.example.com";

describe("crossSiteReason", () => {
  it("lets the store's own pages post", () => {
    expect(crossSiteReason({ origin: store, "sec-fetch-site": "same-origin" }, store)).toBeNull();
    expect(crossSiteReason({ origin: `${store}` }, `${store}/`)).toBeNull();
  });

  it("lets clients that are not browsers post (no Origin, no Sec-Fetch-Site)", () => {
    expect(crossSiteReason({}, store)).toBeNull();
  });

  it("refuses a post from another site, by either header", () => {
    expect(crossSiteReason({ origin: "https://evil.example" }, store)).toMatch(/not this store/);
    expect(crossSiteReason({ "sec-fetch-site": "cross-site" }, store)).toMatch(/cross-site/);
    expect(crossSiteReason({ origin: store, "sec-fetch-site": "same-site" }, store)).toMatch(/same-site/);
    expect(crossSiteReason({ origin: "http://shop.example.com" }, store)).toMatch(/not this store/);
    expect(crossSiteReason({ origin: "null" }, store)).toMatch(/null/);
    expect(crossSiteReason({ origin: "not a url" }, store)).toMatch(/not a URL/);
  });

  it("only checks methods that change things", () => {
    expect(["GET", "head", "OPTIONS"].map(isUnsafeMethod)).toEqual([false, false, false]);
    expect(["POST", "put", "PATCH", "DELETE"].map(isUnsafeMethod)).toEqual([true, true, true, true]);
  });
});
