import { describe, expect, it } from "vitest";
import {
  brandIds,
  buildSearchIndex,
  fold,
  rankProducts,
  sectionTaggedIds,
  stem,
  taggedIds,
  wordSimilarity,
} from "./search-index";

const row = (id: number, name: string, brandName: string, description = "", categories: string[] = []) => ({
  id,
  name,
  description,
  groupKey: brandName,
  brandName,
  section: brandName === "TP-Link" ? "router" : "antivirus",
  categories,
});

describe("search index", () => {
  const index = buildSearchIndex([
    row(1, "Norton 360 Deluxe", "Norton", "Protects five devices.", ["top-rated"]),
    row(2, "Norton AntiVirus Plus", "Norton", "Antivirus for one computer.", ["best-seller", "top-rated"]),
    row(3, "Café Suite Pro", "Ñandú Soft", "Office software for cafés."),
    row(4, "Archer AX55 Router", "TP-Link", "A dual-band router for the home.", ["best-seller"]),
    row(5, "Deco X55 Mesh", "TP-Link", "Whole-home mesh that replaces routers."),
    row(6, "Norton 360 Deluxe Pro 2", "Norton", "Protects five devices.", ["best-seller"]),
  ]);
  const rank = (query: string, limit = 240) => rankProducts(index, query.split(" ").filter(Boolean), limit);

  it("folds case and accents, stems plurals, measures trigram likeness", () => {
    expect(fold("ÑANDÚ Café")).toBe("nandu cafe");
    expect(stem("routers")).toBe("router");
    expect(stem("licences")).toBe("licence");
    expect(stem("batteries")).toBe("battery");
    expect(stem("antivirus")).toBe("antivirus");
    expect(stem("7")).toBe("7");
    expect(wordSimilarity("norton", "norton")).toBe(1);
    expect(wordSimilarity("nortn", "norton")).toBeGreaterThanOrEqual(0.4);
    expect(wordSimilarity("printer", "norton")).toBeLessThan(0.4);
  });

  it("finds words, typos, prefixes and accented words, best first, ties in catalogue order", () => {
    expect(rank("norton deluxe")).toEqual([1, 6]);
    expect(rank("nortn")).toEqual([1, 2, 6]);
    expect(rank("nort")).toEqual([1, 2, 6]);
    expect(rank("cafe")).toEqual([3]);
    expect(rank("nandu")).toEqual([3]);
    // The name outranks the description; a plural finds the singular in a description.
    expect(rank("router")).toEqual([4, 5]);
    expect(rank("routers")).toEqual([4, 5]);
  });

  it("answers nothing for no words, unknown words, and keeps at most the limit", () => {
    expect(rank("")).toEqual([]);
    expect(rank("xyzzyqwv")).toEqual([]);
    expect(rank("norton", 2)).toEqual([1, 2]);
    expect(rank("norton", 0)).toEqual([]);
    // No limit: every match (the heap of the best is sized to the matches, not to the limit).
    expect(rank("norton", Number.POSITIVE_INFINITY)).toEqual([1, 2, 6]);
    expect(rankProducts(buildSearchIndex([]), ["norton"], 10)).toEqual([]);
  });

  it("gives the same answer when asked again (its buffers are cleared after each search)", () => {
    const first = rank("norton mesh router");
    rank("tp link");
    expect(rank("norton mesh router")).toEqual(first);
  });

  it("lists tagged products in catalogue order, a section's best sellers before its top-rated ones", () => {
    expect(taggedIds(index, "best-seller")).toEqual({ ids: [2, 4, 6], total: 3 });
    expect(taggedIds(index, "best-seller", 1, 1)).toEqual({ ids: [4], total: 3 });
    expect(taggedIds(index, "best-seller", 5, 24)).toEqual({ ids: [], total: 3 });
    expect(taggedIds(index, "no-such-tag")).toEqual({ ids: [], total: 0 });
    expect(sectionTaggedIds(index, "antivirus", ["best-seller", "top-rated"], 8)).toEqual([2, 6, 1]);
    expect(sectionTaggedIds(index, "antivirus", ["best-seller", "top-rated"], 2)).toEqual([2, 6]);
    expect(sectionTaggedIds(index, "router", ["best-seller", "top-rated"], 8)).toEqual([4]);
    expect(brandIds(index, "Norton")).toEqual({ ids: [1, 2, 6], total: 3 });
    expect(brandIds(index, "Norton", 2, 24)).toEqual({ ids: [6], total: 3 });
    expect(brandIds(index, "Nobody")).toEqual({ ids: [], total: 0 });
  });
});
