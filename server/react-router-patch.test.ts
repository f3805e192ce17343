import { createStaticHandler, createStaticRouter } from "react-router";
import { expect, it } from "vitest";

// patches/react-router+7.18.4.patch (ADR 0040): the route work React Router repeats for every request it renders is
// done once. These are what a render sees of it.

const ROUTES = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "home", index: true },
      { id: "brand", path: ":section/:brand" },
      { id: "product", path: ":section/:brand/:product" },
    ],
  },
];

async function matchesOf(handler: ReturnType<typeof createStaticHandler>, url: string) {
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error(`${url} answered ${context.status}`);
  return context;
}

it("converts a route tree for the static router once, not at every render", async () => {
  const handler = createStaticHandler(ROUTES);
  const context = await matchesOf(handler, "http://store.test/antivirus/norton");
  const first = createStaticRouter(handler.dataRoutes, context);
  const second = createStaticRouter(handler.dataRoutes, context);
  expect(second.routes).toBe(first.routes);
  expect(first.state.matches.map((match) => match.route.id)).toEqual(["root", "brand"]);
});

it("matches a path as it did the first time, whatever a render did to the matches it was given", async () => {
  const handler = createStaticHandler(ROUTES);
  const first = await matchesOf(handler, "http://store.test/antivirus/norton?page=2");
  expect(first.matches.map((match) => [match.route.id, match.params])).toEqual([
    ["root", { section: "antivirus", brand: "norton" }],
    ["brand", { section: "antivirus", brand: "norton" }],
  ]);
  // One params object for all of a request's matches, as React Router gives it, and a new one each request.
  expect(first.matches[1]!.params).toBe(first.matches[0]!.params);
  (first.matches[0]!.params as Record<string, string>).brand = "changed";
  first.matches.pop();

  const again = await matchesOf(handler, "http://store.test/antivirus/norton");
  expect(again.matches.map((match) => [match.route.id, match.params.brand])).toEqual([
    ["root", "norton"],
    ["brand", "norton"],
  ]);
  const other = await matchesOf(handler, "http://store.test/router/tplink/archer-ax55");
  expect(other.matches.map((match) => match.route.id)).toEqual(["root", "product"]);
  expect(other.matches[1]!.params).toEqual({ section: "router", brand: "tplink", product: "archer-ax55" });
  const home = await matchesOf(handler, "http://store.test/");
  expect(home.matches.map((match) => match.route.id)).toEqual(["root", "home"]);
});
