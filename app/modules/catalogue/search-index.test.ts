import { describe, expect, it } from "vitest";
import {
  brandIds,
  buildSearchIndex,
  fold,
  type IndexedProductRow,
  rankProducts,
  sectionTaggedIds,
  stem,
  taggedIds,
  updateSearchIndex,
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
  brandPosition: 0,
  position: id,
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

describe("updating the index for the products that changed", () => {
  const BRANDS = [
    { groupKey: "norton", brandName: "Norton", section: "antivirus", brandPosition: 1 },
    { groupKey: "tp-link", brandName: "TP-Link", section: "router", brandPosition: 2 },
    { groupKey: "canon", brandName: "Canon", section: "printer", brandPosition: 3 },
  ];
  const NAMES = [
    "Deluxe",
    "Router",
    "Mesh",
    "Pixma",
    "Antivirus",
    "Premium",
    "Suite",
    "Café",
    "Archer",
    "Plus",
  ];
  const TAGS = ["best-seller", "top-rated", "new"];
  const QUERIES = [
    "norton",
    "router mesh",
    "pixma 7",
    "cafe",
    "premium suite",
    "archr",
    "antivirus plus",
    "tp",
  ];

  /** A small random generator of its own, so a failure can be run again from its seed. */
  function generator(seed: number) {
    let state = seed;
    return (below: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % below;
    };
  }

  function randomRow(id: number, random: (below: number) => number): IndexedProductRow & { hidden: boolean } {
    const brand = BRANDS[random(BRANDS.length)]!;
    const words = Array.from({ length: 1 + random(3) }, () => NAMES[random(NAMES.length)]!);
    return {
      id,
      ...brand,
      name: `${brand.brandName} ${words.join(" ")} ${random(20)}`,
      description: `${NAMES[random(NAMES.length)]} for ${random(5)} devices, with ${NAMES[random(NAMES.length)]}s.`,
      categories: TAGS.filter(() => random(3) === 0),
      position: random(10),
      hidden: random(6) === 0,
    };
  }

  /** Everything a page asks the index, which must be the same for an updated index and one built afresh. */
  function answers(index: ReturnType<typeof buildSearchIndex>) {
    return {
      ids: [...index.ids],
      brands: BRANDS.map((brand) => brandIds(index, brand.groupKey, 1, 5)),
      tags: TAGS.map((tag) => taggedIds(index, tag)),
      highlights: BRANDS.map((brand) => sectionTaggedIds(index, brand.section, TAGS, 4)),
      searches: QUERIES.map((query) => rankProducts(index, query.split(" "), 240)),
    };
  }

  it("answers as an index built afresh, through edits, hiding, new and deleted products and moves", () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const random = generator(seed);
      const catalogue = new Map<number, IndexedProductRow & { hidden: boolean }>();
      for (let id = 1; id <= 60; id++) catalogue.set(id, randomRow(id, random));
      const visible = () =>
        [...catalogue.values()]
          .filter((row) => !row.hidden)
          .sort((a, b) => a.brandPosition - b.brandPosition || a.position - b.position || a.id - b.id);
      let index = buildSearchIndex(visible());
      let nextId = 61;
      for (let round = 0; round < 12; round++) {
        const changed = new Set<number>();
        for (let k = 0, n = 1 + random(6); k < n; k++) {
          const action = random(4);
          if (action === 0) {
            changed.add(nextId);
            catalogue.set(nextId, randomRow(nextId++, random));
          } else {
            const ids = [...catalogue.keys()];
            const id = ids[random(ids.length)]!;
            changed.add(id);
            if (action === 1) catalogue.delete(id);
            else catalogue.set(id, randomRow(id, random));
          }
        }
        const before = answers(index);
        const updated = updateSearchIndex(
          index,
          changed,
          visible().filter((row) => changed.has(row.id)),
        );
        expect(answers(updated), `seed ${seed}, round ${round}`).toEqual(
          answers(buildSearchIndex(visible())),
        );
        // The index updated from is left as it was, for a request still reading it.
        expect(answers(index)).toEqual(before);
        index = updated;
      }
    }
  });

  it("finds a product by its new name and no longer by its old one", () => {
    const rows = [row(1, "Norton 360 Deluxe", "Norton"), row(2, "Archer AX55 Router", "TP-Link")];
    const index = buildSearchIndex(rows);
    const renamed = updateSearchIndex(index, [1], [{ ...rows[0]!, name: "Norton Vortex Shield" }]);
    expect(rankProducts(renamed, ["vortex"], 10)).toEqual([1]);
    expect(rankProducts(renamed, ["deluxe"], 10)).toEqual([]);
    expect(rankProducts(updateSearchIndex(renamed, [2], []), ["archer"], 10)).toEqual([]);
  });
});
