import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seoRecords, webInfo } from "~db/schema";
import { readDemoSeed } from "~/modules/seed/import.server";
import type { Env } from "~/lib/env.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { DEFAULT_TITLE, seoForPath } from "./seo.server";
import { DESCRIPTION_MAX } from "./summary";

const env = { PUBLIC_URL: "https://shop.example.com" } as Env;
const STORE = "KeyHaven Tech Store";
const longText = `${"A sentence about the product that goes on. ".repeat(10)}\n\nA second paragraph.`;

describe.each(drivers)("page titles, descriptions and canonical addresses on %s", (driver) => {
  let database: TestDatabase;
  let ctx: { db: TestDatabase["db"]; env: Env };
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
    ctx = { db: database.db, env };
  });
  afterAll(async () => {
    await database.close();
  });

  it("uses the record whose route matches the path as its owner wrote it, ignoring case and a trailing slash", async () => {
    const seo = await seoForPath(ctx, "/About/", { page: { title: "About us", description: "x" } });
    expect(seo.title).toBe(`About Us | ${STORE}`);
    expect(seo.description).toMatch(/^Learn about/);
    expect(seo.keywords).not.toBe("");
    // The record's route is the page's address, not the letters typed.
    expect(seo.canonical).toBe("https://shop.example.com/about");
  });

  it("uses a product's name with the store's name, and its description, when the record has no title", async () => {
    const seo = await seoForPath(ctx, "/windows/windows7/professional", {
      product: { name: "Windows 7 Professional", description: longText },
      canonicalPath: "/windows/windows7/professional",
    });
    expect(seo.title).toBe(`Windows 7 Professional | ${STORE}`);
    // The record's own description comes first.
    expect(seo.description).toMatch(/^Buy a Windows 7 Professional licence key/);
  });

  it("uses the product's name and a short part of its description on a product page without a record", async () => {
    const seo = await seoForPath(ctx, "/Antivirus/Kaspersky/Plus", {
      product: { name: "Kaspersky Plus", description: longText },
      canonicalPath: "/antivirus/kaspersky/plus",
    });
    expect(seo.title).toBe(`Kaspersky Plus | ${STORE}`);
    expect(seo.description.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(seo.description).toMatch(/^A sentence about the product.*…$/);
    expect(seo.description).not.toContain("second paragraph");
    expect(seo.canonical).toBe("https://shop.example.com/antivirus/kaspersky/plus");
  });

  it("gives mcafee and norton brand pages their product metadata as written, with the store's name filled in", async () => {
    const metadata = readDemoSeed().productMetadata!;
    const norton = await seoForPath(ctx, "/antivirus/norton", {
      brand: { key: "Norton", title: "Norton Antivirus Support", whyChoose: "Why Norton." },
    });
    const named = (text: string) => text.replaceAll("{store}", STORE);
    expect(norton).toMatchObject({
      title: named(metadata.norton!.title),
      description: named(metadata.norton!.description),
      keywords: named(metadata.norton!.keywords),
    });
    expect(norton.title).toBe(`Buy Norton Antivirus Online | ${STORE}`);
  });

  it("gives other brand pages their support title and why-choose text", async () => {
    const seo = await seoForPath(ctx, "/antivirus/kaspersky", {
      brand: { key: "Kaspersky", title: "Kaspersky Antivirus Support", whyChoose: longText },
    });
    expect(seo.title).toBe(`Kaspersky Antivirus Support | ${STORE}`);
    expect(seo.description).toMatch(/^A sentence about the product/);
  });

  it("gives the store's own pages their own names, with the store's name, and a description", async () => {
    const seo = await seoForPath(ctx, "/payment", {
      page: { title: "Checkout", description: "Pay for your **order**." },
    });
    expect(seo).toMatchObject({
      title: `Checkout | ${STORE}`,
      description: "Pay for your order.",
      canonical: "https://shop.example.com/payment",
    });
  });

  it("keeps Default Title only for a path the store knows nothing about", async () => {
    const seo = await seoForPath(ctx, "/some/future-page");
    expect(seo).toMatchObject({
      title: DEFAULT_TITLE,
      description: "",
      keywords: "",
      canonical: "https://shop.example.com/some/future-page",
    });
  });

  it("follows a renamed store and a changed record at once", async () => {
    await database.db.update(webInfo).set({ name: "Renamed Store" });
    // The stored records name the store by placeholder: a rename reaches all of them, and the payments they promise
    // are the ones on offer (no card payments without Stripe).
    const cart = await seoForPath(ctx, "/cart/", { page: { title: "Ignored", description: "" } });
    expect(cart.title).toBe("Your Cart | Renamed Store");
    expect(cart.description).toBe(
      "Review the items in your cart and proceed to secure checkout, paying by bank transfer.",
    );
    expect((await seoForPath(ctx, "/")).title).toBe(
      "Antivirus, Windows Licences, Printers & Routers | Renamed Store",
    );
    expect((await seoForPath(ctx, "/about")).description).toMatch(
      /^Learn about Renamed Store, an independent/,
    );
    expect((await seoForPath(ctx, "/payment", { page: { title: "Checkout", description: "" } })).title).toBe(
      "Checkout | Renamed Store",
    );
    await database.db
      .insert(seoRecords)
      .values({ route: "/some/new-page", title: "Fresh title", description: "d", keywords: "k" });
    expect((await seoForPath(ctx, "/some/new-page")).title).toBe("Fresh title");
    await database.db.update(seoRecords).set({ title: null }).where(eq(seoRecords.route, "/some/new-page"));
    expect((await seoForPath(ctx, "/some/new-page")).title).toBe(DEFAULT_TITLE);
  });
});
