import { describe, expect, it } from "vitest";
import { pageHref, pagerPages, requestedPage } from "./pagination";

const page = (search: string) => requestedPage(new URL(`http://store.test/best-sellers${search}`));

describe("pagination", () => {
  it("reads ?page= as a plain whole number from 1, and anything else as no page", () => {
    expect(page("")).toBe(1);
    expect(page("?page=1")).toBe(1);
    expect(page("?page=12")).toBe(12);
    for (const bad of ["0", "-1", "01", "1.5", "abc", "", "1e3", "9999999", "%201"]) {
      expect(page(`?page=${bad}`), bad).toBeNull();
    }
  });

  it("links the first, the last and the pages near this one, with gaps between", () => {
    expect(pagerPages(1, 1)).toEqual([1]);
    expect(pagerPages(1, 3)).toEqual([1, 2, 3]);
    expect(pagerPages(6, 20)).toEqual([1, null, 4, 5, 6, 7, 8, null, 20]);
    expect(pagerPages(20, 20)).toEqual([1, null, 18, 19, 20]);
  });

  it("keeps the other query parameters and leaves page out for the first page", () => {
    expect(pageHref({ pathname: "/search", search: "?q=norton&page=3" }, 1)).toBe("/search?q=norton");
    expect(pageHref({ pathname: "/search", search: "?q=norton" }, 2)).toBe("/search?q=norton&page=2");
    expect(pageHref({ pathname: "/antivirus/mcafee", search: "" }, 4)).toBe("/antivirus/mcafee?page=4");
  });
});
