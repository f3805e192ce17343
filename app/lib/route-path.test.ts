import type { RouteConfigEntry } from "@react-router/dev/routes";
import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { HOSTILE_SPELLINGS, routeSamples, spellingsOf } from "../../tests/support/route-spellings";
import { isPersonalPath } from "./page-caching";
import { routePath } from "./route-path";

// The route table as the server build hands it to React Router: the root layout around app/routes.ts.
const toObjects = (entries: RouteConfigEntry[]): RouteObject[] =>
  entries.map(
    (entry) =>
      ({
        id: entry.id ?? entry.file,
        path: entry.path,
        index: entry.index,
        caseSensitive: entry.caseSensitive,
        children: entry.children ? toObjects(entry.children) : undefined,
      }) as RouteObject,
  );
const table: RouteObject[] = [{ id: "root", path: "", children: toObjects(routes) }];

/** The route React Router renders for a path as the request adapter hands it over (WHATWG-parsed). */
const renderedBy = (target: string) => {
  const { pathname } = new URL(`http://store${target.split("?")[0]}`);
  return matchRoutes(table, pathname)?.at(-1)?.route.id;
};

const ODD_SPELLINGS = [
  "//admin",
  "/admin;x=1",
  "/admin%2Forders",
  "/%2575ser/login",
  "/user%2F..%2Fadmin",
  "/ADM\u0130N",
  "/admin/ORDERS/",
  "/admin//orders",
  "/%2E%2E/admin",
  "/about\\..\\admin",
  "/",
  "///",
];

describe("routePath", () => {
  const everySpelling = [
    ...routeSamples().flatMap((sample) => spellingsOf(sample.path)),
    ...HOSTILE_SPELLINGS.map(({ spelling }) => spelling).filter((spelling) => !/\.data(\?|$)/.test(spelling)),
    ...ODD_SPELLINGS,
  ];

  it("is a path React Router renders with the same route as the spelling it was read from", () => {
    for (const spelling of everySpelling) {
      const path = routePath(spelling);
      expect(path, spelling).toBeDefined();
      // The path is decoded already: written as an address again, it is read back as itself.
      const address = path!.replace(/[%?#]/g, encodeURIComponent);
      expect(renderedBy(address), spelling).toBe(renderedBy(spelling));
      expect(routePath(address), spelling).toBe(path);
    }
  });

  it("reads every spelling of a route as the path typed in lower case", () => {
    for (const sample of routeSamples()) {
      for (const spelling of spellingsOf(sample.path))
        expect(routePath(spelling), spelling).toBe(sample.path.toLowerCase());
    }
    for (const { spelling, means } of HOSTILE_SPELLINGS) expect(routePath(spelling), spelling).toBe(means);
  });

  it("decodes once, as the router does: a double-encoded letter is not the letter", () => {
    expect(routePath("/%2575ser/login")).toBe("/%75ser/login");
    expect(renderedBy("/%2575ser/login")).toBe("routes/catalogue-page.tsx");
    expect(routePath("/admin%2Forders")).toBe("/admin%2forders");
  });

  it("has no path for what does not decode or decodes to a control character", () => {
    for (const spelling of [
      "/%E0%A4%A",
      "/user/%",
      "/%zz",
      "/%C0%AF",
      "/%00",
      "/about%00.html",
      "/a%0Ab",
      "/%7F",
    ])
      expect(routePath(spelling), spelling).toBeUndefined();
    expect(routePath("about")).toBeUndefined();
  });
});

describe("routePath of a path written as the store writes its links", () => {
  it("gives it back as it is, and reads dot segments, .data and slashes as the router does", () => {
    for (const path of ["/", "/antivirus/norton/360-deluxe", "/a.b/c~d/e_f", "/...", "/a/.b", "/x.datax"])
      expect(routePath(path), path).toBe(path);
    expect(routePath("/a/./b")).toBe("/a/b");
    expect(routePath("/a/../admin")).toBe("/admin");
    expect(routePath("/..")).toBe("/");
    expect(routePath("/.")).toBe("/");
    expect(routePath("/antivirus.data")).toBe("/antivirus");
    expect(routePath("/_.data")).toBe("/");
    expect(routePath("/admin/")).toBe("/admin");
    expect(routePath("//admin")).toBe("//admin");
    expect(routePath("/Admin")).toBe("/admin");
  });
});

describe("isPersonalPath", () => {
  it("holds for every spelling of a personal page, and for a path that cannot be read", () => {
    for (const { spelling } of HOSTILE_SPELLINGS) expect(isPersonalPath(spelling), spelling).toBe(true);
    expect(isPersonalPath("/%E0%A4%A")).toBe(true);
  });

  it("does not hold for pages the router renders elsewhere", () => {
    for (const path of ["/", "/about", "/%61bout", "/administrator", "//admin", "/%2575ser/login", "/cart"])
      expect(isPersonalPath(path), path).toBe(false);
  });
});
