import { and, eq, inArray, ne } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products, productVariants, settings } from "~db/schema";
import type { Product } from "~db/schema/catalogue";
import { CurrencyProvider } from "~/lib/currency-context";
import { type Currency, DEFAULT_INR_RATE, toDecimalString } from "~/lib/money";
import { ProductCard } from "~/modules/catalogue/components/product-card";
import { saveSettings } from "~/modules/orders/settings.server";
import { type ContentVersion, startContentVersion } from "~/modules/content/content-version.server";
import { snapshotSize } from "~/modules/content/snapshot.server";
import { drivers, type TestDatabase } from "../../tests/support/database";
import { recordingLogger } from "../../tests/support/logger";
import { testEnv, useDemoStore } from "../../tests/support/orders";
import { brandProducts } from "~/modules/catalogue/catalogue.server";
import { loader } from "./catalogue-page";

describe.each(drivers)("a product page with variants on %s", (driver) => {
  let database: TestDatabase;
  let product: Product;

  useDemoStore(driver, (store) => ({ database } = store));
  beforeAll(async () => {
    product = (
      await database.db
        .select()
        .from(products)
        .where(and(eq(products.groupKey, "Kaspersky"), eq(products.externalId, "2")))
    )[0]!;
    await database.db.insert(productVariants).values([
      {
        productId: product.id,
        sku: "PAGE-1Y",
        label: "1 device, 1 year",
        position: 0,
        priceCents: 1999,
        originalPriceCents: 2999,
        termMonths: 12,
      },
      {
        productId: product.id,
        sku: "PAGE-2Y",
        label: "1 device, 2 years",
        position: 1,
        priceCents: 3499,
        originalPriceCents: 3499,
        // The owner's own rupee price: below the first variant's at the rate, so the cheapest in rupees.
        inrPriceCents: 149900,
        termMonths: 24,
      },
      {
        productId: product.id,
        sku: "PAGE-OLD",
        label: "Old",
        position: 2,
        priceCents: 999,
        originalPriceCents: 999,
        hidden: true,
      },
    ]);
  });

  /**
   * The loader's answer for the product's page at `search` (another product's at `route`), for a shopper paying in
   * `currency`: its data, and its status when not 200.
   */
  async function page(
    search: string,
    {
      contentVersion,
      currency,
      route = product.route,
    }: { contentVersion?: ContentVersion; currency?: Currency; route?: string } = {},
  ) {
    const answer = (await loader({
      request: new Request(`http://localhost${route}${search}`, {
        headers: currency ? { Cookie: `currency=${currency}` } : {},
      }),
      context: { db: database.db, env: testEnv(), ...(contentVersion ? { contentVersion } : {}) },
      params: {},
    } as never)) as unknown;
    const wrapped = answer as { type?: string; data?: unknown; init?: { status?: number } };
    if (wrapped.type === "DataWithResponseInit")
      return { status: wrapped.init?.status ?? 200, data: wrapped.data as PageData };
    return { status: 200, data: answer as PageData };
  }
  type PageData = {
    selected: { sku: string; priceCents: number } | null;
    variants: Array<{ sku: string }>;
    unknownVariant: string | null;
    seo: {
      title: string;
      canonical: string;
      jsonLd: { offers: unknown };
    };
  };

  it("shows the first variant on sale without a choice, and each variant chosen by its SKU at its own address", async () => {
    const first = await page("");
    expect(first.status).toBe(200);
    expect(first.data.selected).toMatchObject({ sku: "PAGE-1Y", priceCents: 1999 });
    // Hidden variants are not offered.
    expect(first.data.variants.map((variant) => variant.sku)).toEqual(["PAGE-1Y", "PAGE-2Y"]);
    expect(first.data.seo.canonical).toBe(`https://shop.example.com${product.route}`);
    expect(first.data.seo.jsonLd.offers).toEqual([
      expect.objectContaining({
        sku: "PAGE-1Y",
        price: "19.99",
        priceCurrency: "USD",
        url: `https://shop.example.com${product.route}?variant=PAGE-1Y`,
      }),
      expect.objectContaining({
        sku: "PAGE-2Y",
        price: "34.99",
        priceCurrency: "USD",
        url: `https://shop.example.com${product.route}?variant=PAGE-2Y`,
      }),
    ]);

    const second = await page("?variant=page-2y");
    expect(second.status).toBe(200);
    expect(second.data.selected).toMatchObject({ sku: "PAGE-2Y", priceCents: 3499 });
    expect(second.data.seo.canonical).toBe(`https://shop.example.com${product.route}?variant=PAGE-2Y`);
    // A page of its own has a title of its own; the first variant's is the product's page and title.
    expect(second.data.seo.title).toBe(`${product.name} (1 device, 2 years) | KeyHaven Tech Store`);
    expect(first.data.seo.title).toBe(`${product.name} | KeyHaven Tech Store`);
    expect((await page("?variant=PAGE-1Y")).data.seo.title).toBe(first.data.seo.title);
  });

  it("offers in its JSON-LD what the page shows a shopper paying in rupees: the owner's own price, else the store's rate", async () => {
    // The store's rate, not the default: ₹90.00 a dollar, up to the next rupee ending in 9.
    await saveSettings(database.db, { inrPaisePerUsd: 9000, inrRounding: "nine" });
    // Another of the brand's products, sold without variants, at a rupee price of the owner's.
    const [single] = await database.db
      .select()
      .from(products)
      .where(
        and(eq(products.groupKey, product.groupKey), ne(products.id, product.id), eq(products.hidden, false)),
      )
      .limit(1);
    await database.db.update(products).set({ inrPriceCents: 99900 }).where(eq(products.id, single!.id));
    try {
      const rupees = await page("", { currency: "INR" });
      expect(rupees.data.seo.jsonLd.offers).toEqual([
        // $19.99 is ₹1,799.10 at the rate: ₹1,809 rounded up to a 9.
        expect.objectContaining({ sku: "PAGE-1Y", price: "1809.00", priceCurrency: "INR" }),
        expect.objectContaining({ sku: "PAGE-2Y", price: "1499.00", priceCurrency: "INR" }),
      ]);
      expect((await page("?variant=PAGE-2Y", { currency: "INR" })).data.seo.jsonLd.offers).toEqual(
        rupees.data.seo.jsonLd.offers,
      );
      expect(
        (await page("", { currency: "INR", route: single!.route })).data.seo.jsonLd.offers,
      ).toMatchObject({
        price: "999.00",
        priceCurrency: "INR",
      });
      expect(
        (await page("", { currency: "USD", route: single!.route })).data.seo.jsonLd.offers,
      ).toMatchObject({
        price: toDecimalString(single!.priceCents),
        priceCurrency: "USD",
      });
    } finally {
      await database.db.delete(settings).where(inArray(settings.key, ["inrPaisePerUsd", "inrRounding"]));
      await database.db.update(products).set({ inrPriceCents: null }).where(eq(products.id, single!.id));
    }
  });

  it("puts its cheapest variant on sale in the shopper's currency on its card, From it since others cost more; hidden ones left out", async () => {
    const cards = await brandProducts({ db: database.db }, product.groupKey, { limit: 100 });
    const card = cards.find((entry) => entry.id === product.id)!;
    /** The card's price and the struck one before the discount, as a shopper in `currency` reads them. */
    const shown = (currency: Currency) => {
      const html = renderToStaticMarkup(
        createElement(
          CurrencyProvider,
          { value: { currency, rate: DEFAULT_INR_RATE } },
          createElement(ProductCard, { product: card }),
        ),
      );
      const text = (pattern: RegExp) => pattern.exec(html)?.[1]?.replace(/<[^>]+>/g, "");
      return {
        price: text(/data-testid="card-price">((?:<span[^>]*>[^<]*<\/span>)?[^<]*)<\/span>/),
        was: text(/<s [^>]*>([^<]*)<\/s>/),
      };
    };
    // PAGE-OLD at $9.99 is hidden: not the price it sells at.
    expect(shown("USD")).toEqual({ price: "From $19.99", was: "$29.99" });
    // In rupees PAGE-2Y's own ₹1,499 is below PAGE-1Y's ₹1,669 at the rate; PAGE-2Y's $34.99 at the rate is struck.
    expect(shown("INR")).toEqual({ price: "From ₹1,499.00", was: "₹2,922.00" });
    // A product sold without variants shows its own price.
    expect(cards.find((entry) => entry.id !== product.id)!.variantPrices).toBeNull();
  });

  it("answers a SKU it does not sell (unknown or hidden) with 404 and the product, its variants to choose from", async () => {
    for (const sku of ["NOPE", "PAGE-OLD"]) {
      const answer = await page(`?variant=${sku}`);
      expect(answer.status).toBe(404);
      expect(answer.data.unknownVariant).toBe(sku);
      expect(answer.data.variants).toHaveLength(2);
      expect(answer.data.seo.canonical).toBe(`https://shop.example.com${product.route}`);
    }
  });

  describe("kept in the public data snapshot", () => {
    let contentVersion: ContentVersion;
    beforeAll(async () => {
      contentVersion = await startContentVersion(database, recordingLogger().logger);
    });
    afterAll(() => contentVersion?.close());

    it("keeps one entry per variant it sells, and none for made-up SKUs, however many are asked for", async () => {
      await page("", { contentVersion });
      await page("?variant=PAGE-2Y", { contentVersion });
      const kept = snapshotSize(contentVersion);
      for (let n = 0; n < 50; n++) {
        const answer = await page(`?variant=MADE-UP-${n}`, { contentVersion });
        expect(answer.status).toBe(404);
        expect(answer.data.unknownVariant).toBe(`MADE-UP-${n}`);
      }
      // Another spelling of a SKU it sells is the same page.
      expect((await page("?variant=page-2y", { contentVersion })).data.selected?.sku).toBe("PAGE-2Y");
      expect((await page("?variant=PAGE-1Y", { contentVersion })).data.seo.canonical).toBe(
        `https://shop.example.com${product.route}`,
      );
      // A shopper paying in rupees reads the same entries, and offers in rupees all the same.
      expect((await page("", { contentVersion, currency: "INR" })).data.seo.jsonLd.offers).toEqual([
        expect.objectContaining({ sku: "PAGE-1Y", priceCurrency: "INR" }),
        expect.objectContaining({ sku: "PAGE-2Y", price: "1499.00", priceCurrency: "INR" }),
      ]);
      expect((await page("", { contentVersion })).data.seo.jsonLd.offers).toEqual([
        expect.objectContaining({ sku: "PAGE-1Y", price: "19.99", priceCurrency: "USD" }),
        expect.objectContaining({ sku: "PAGE-2Y", price: "34.99", priceCurrency: "USD" }),
      ]);
      expect(snapshotSize(contentVersion)).toBe(kept);
    });
  });
});
