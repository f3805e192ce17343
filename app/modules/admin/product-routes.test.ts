import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { SECTION_ORDER } from "~/modules/catalogue/sections";
import {
  brandPageReason,
  RESERVED_FIRST_SEGMENTS,
  RESERVED_PATHS,
  reservedRouteReason,
} from "./product-routes";

type Entry = { path?: string; children?: Entry[] };
const paths = (entries: Entry[], prefix = ""): string[] =>
  entries.flatMap((entry) => {
    const path = entry.path ? `${prefix}/${entry.path}` : prefix;
    return [path, ...paths(entry.children ?? [], path)];
  });

describe("addresses a product cannot take", () => {
  it("covers every page of the route table (a new page must be added to the list)", () => {
    const own = paths(routes as Entry[]).filter((path) => path !== "" && path !== "/*");
    for (const path of own) {
      const segments = path.split("/").filter(Boolean);
      const first = segments[0]!.toLowerCase();
      if ((SECTION_ORDER as string[]).includes(first)) {
        // Section pages, and the announced pages under a section.
        expect(segments.length === 1 || (RESERVED_PATHS as readonly string[]).includes(path)).toBe(true);
      } else if (!(RESERVED_PATHS as readonly string[]).includes(path)) {
        expect(RESERVED_FIRST_SEGMENTS).toContain(first);
      }
    }
  });

  it("explains why an address is taken, and leaves product addresses free", () => {
    expect(reservedRouteReason("/Cart/x")).toBe("Addresses under /cart belong to the store's own pages");
    expect(reservedRouteReason("/antivirus")).toBe("/antivirus is the antivirus section page");
    expect(reservedRouteReason("/antivirus/future-brand")).toMatch(/announced/);
    expect(reservedRouteReason("/antivirus/norton/new-suite")).toBeNull();
    expect(reservedRouteReason("/antvirus/pcmatic/x")).toBeNull();
    const brands = [{ section: "antivirus", slug: "norton", name: "Norton" }];
    expect(brandPageReason("/Antivirus/Norton", brands)).toBe("This address is the Norton brand page");
    expect(brandPageReason("/printer/norton", brands)).toBeNull();
    expect(brandPageReason("/antivirus/norton/x", brands)).toBeNull();
  });
});
