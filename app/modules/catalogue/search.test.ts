import { describe, expect, it } from "vitest";
import { normalizeSearchQuery, SEARCH_MAX_LENGTH, searchWords } from "./search";

describe("search input", () => {
  it("collapses spaces and cuts long queries", () => {
    expect(normalizeSearchQuery("  norton   360 ")).toEqual({ query: "norton 360", truncated: false });
    expect(normalizeSearchQuery(undefined)).toEqual({ query: "", truncated: false });
    const long = normalizeSearchQuery("a".repeat(SEARCH_MAX_LENGTH + 50));
    expect(long.query).toHaveLength(SEARCH_MAX_LENGTH);
    expect(long.truncated).toBe(true);
  });

  it("keeps only words: no search syntax, no single letters, single digits kept", () => {
    expect(searchWords("Norton's 360 & <b>Deluxe</b> | !x")).toEqual(["norton", "360", "deluxe"]);
    expect(searchWords("Windows 7 windows")).toEqual(["windows", "7"]);
    expect(searchWords("'; drop table products; --")).toEqual(["drop", "table", "products"]);
    expect(searchWords("& | ! :*")).toEqual([]);
  });
});
