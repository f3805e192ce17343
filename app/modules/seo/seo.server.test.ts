import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seoRecords } from "~db/schema";
import { readDemoSeed } from "~db/seed/import.server";
import { seedDemo } from "../../../tests/support/seed";
import type { Env } from "~/lib/env.server";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { DEFAULT_TITLE, seoForPath } from "./seo.server";

const env = { PUBLIC_URL: "https://shop.example.com" } as Env;

describe.each(drivers)("meta tags from SEO records on %s", (driver) => {
  let database: TestDatabase;
  let ctx: { db: TestDatabase["db"]; env: Env };
  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db);
    ctx = { db: database.db, env };
  });
  afterAll(async () => {
    await database.close();
  });

  it("uses the record whose route matches the path, ignoring case and a trailing slash", async () => {
    const seo = await seoForPath(ctx, "/About/");
    expect(seo.title).toMatch(/About/);
    expect(seo.description).not.toBe("");
    expect(seo.keywords).not.toBe("");
    expect(seo.canonical).toBe("https://shop.example.com/About");
  });

  it("uses the product's name when the record has no title", async () => {
    const seo = await seoForPath(ctx, "/windows/windows7/professional", {
      productName: "Windows 7 Professional",
    });
    expect(seo.title).toBe("Windows 7 Professional");
    expect(seo.description).not.toBe("");
  });

  it("uses Default Title without a record", async () => {
    const seo = await seoForPath(ctx, "/no/record/here", { productName: "Something" });
    expect(seo).toMatchObject({ title: DEFAULT_TITLE, description: "", keywords: "" });
  });

  it("gives mcafee and norton brand pages their product metadata, other brands the default", async () => {
    const metadata = readDemoSeed().productMetadata!;
    expect((await seoForPath(ctx, "/antivirus/mcafee", { brandKey: "McAfee" })).title).toBe(
      metadata.mcafee!.title,
    );
    expect((await seoForPath(ctx, "/antivirus/norton", { brandKey: "Norton" })).keywords).toBe(
      metadata.norton!.keywords,
    );
    expect((await seoForPath(ctx, "/antivirus/kaspersky", { brandKey: "Kaspersky" })).title).toBe(
      DEFAULT_TITLE,
    );
  });

  it("sees a changed record at once", async () => {
    await database.db
      .insert(seoRecords)
      .values({ route: "/some/new-page", title: "Fresh title", description: "d", keywords: "k" });
    expect((await seoForPath(ctx, "/some/new-page")).title).toBe("Fresh title");
  });
});
