import { readFileSync } from "node:fs";
import path from "node:path";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { parseMoney } from "~/lib/money";
import { addLicenceKeys } from "~/modules/orders/licence-keys.server";
import { saveSettings } from "~/modules/orders/settings.server";
import type { Database, Transaction } from "~db/client.server";
import { projectRoot } from "~db/paths.server";
import {
  banners,
  blogPosts,
  brandContent,
  brandGroups,
  companyDetails,
  pages,
  productMetadata,
  products,
  productReviews,
  productVariants,
  promotions,
  seoRecords,
  taxRules,
  services,
  webInfo,
} from "~db/schema";
import { type productSchema, type SeedFile, seedFileSchema } from "./schema";

export class SeedValidationError extends Error {
  override name = "SeedValidationError";
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source} is not a valid catalogue file:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
}

/** "groups[3].products[1].price" style paths, so a person can find the field in their file. */
export function formatIssuePath(issuePath: readonly PropertyKey[]): string {
  return issuePath.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    "",
  );
}

function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${formatIssuePath(issue.path) || "(file)"}: ${issue.message}`);
}

export function parseSeed(data: unknown, source: string): SeedFile {
  const parsed = seedFileSchema.safeParse(data);
  if (!parsed.success) throw new SeedValidationError(source, describeIssues(parsed.error));
  return parsed.data;
}

export function readSeedFile(file: string): SeedFile {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new SeedValidationError(file, [`(file): ${(error as Error).message}`]);
  }
  return parseSeed(data, file);
}

export const demoSeedFiles = () =>
  ["catalogue.json", "site.json", "licence-keys.json", "reviews.json"].map((name) =>
    path.join(projectRoot(), "app", "modules", "seed", "data", name),
  );

/** The demo store: catalogue and site content, validated as one file. */
export function readDemoSeed(): SeedFile {
  const merged = Object.assign({}, ...demoSeedFiles().map((file) => JSON.parse(readFileSync(file, "utf8"))));
  return parseSeed(merged, "the demo data");
}

export type ImportReport = {
  groups: number;
  products: number;
  brandContent: number;
  pages: number;
  licenceKeys: number;
};

export type ImportOptions = {
  /** Encrypts licence keys; needed when the file has any. */
  cipher?: KeyCipher;
};

/**
 * Upserts everything in the file in one transaction: running it twice changes nothing the second time,
 * and a failure leaves the database as it was. Rows missing from the file are kept (orders may refer to them).
 */
export async function importSeed(
  db: Database,
  file: SeedFile,
  source = "the catalogue file",
  options: ImportOptions = {},
): Promise<ImportReport> {
  if (file.licenceKeys?.length && !options.cipher)
    throw new Error("Importing licence keys needs the store's encryption key");
  return db.transaction(async (tx) => {
    const problems = await conflictsWithDatabase(tx, file);
    if (problems.length > 0) throw new SeedValidationError(source, problems);
    await importContent(tx, file);
    let productCount = 0;
    for (const [position, group] of (file.groups ?? []).entries()) {
      await tx
        .insert(brandGroups)
        .values({
          key: group.key,
          slug: group.key.toLowerCase(),
          name: group.name,
          section: group.section,
          officialWebsite: group.officialWebsite,
          owner: group.owner ?? "",
          contentKey: group.content,
          position,
        })
        .onConflictDoUpdate({
          target: brandGroups.key,
          set: excluded(["slug", "name", "section", "official_website", "owner", "content_key", "position"]),
        });
      for (const [index, product] of group.products.entries()) {
        await tx
          .insert(products)
          .values({
            groupKey: group.key,
            externalId: product.id,
            name: product.name,
            description: product.desc,
            priceCents: parseMoney(product.price),
            originalPriceCents: parseMoney(product.originalPrice),
            categories: [...new Set((product.category ?? []).filter((tag) => tag !== ""))],
            img: product.img,
            route: product.route,
            specifications: Object.entries(product.specifications).map(([label, value]) => ({
              label,
              value,
            })),
            position: index,
            stock: product.stock ?? null,
            ...(product.backorders === undefined ? {} : { waitingOrders: product.backorders }),
          })
          .onConflictDoUpdate({
            target: [products.groupKey, products.externalId],
            set: {
              ...excluded([
                "name",
                "description",
                "price_cents",
                "original_price_cents",
                "categories",
                "img",
                "route",
                "specifications",
                "position",
                ...(product.backorders === undefined ? [] : ["waiting_orders"]),
              ]),
              // A counted product keeps its live count: orders have taken from it since the file was written.
              stock: sql`coalesce(${products.stock}, excluded.stock)`,
              updatedAt: sql`now()`,
            },
          });
        if (product.variants) await importVariants(tx, source, group.key, product.id, product.variants);
        productCount++;
      }
    }
    const licenceKeyCount = await importLicenceKeys(tx, file, source, options.cipher);
    await importSampleReviews(tx, file, source);
    return {
      licenceKeys: licenceKeyCount,
      groups: file.groups?.length ?? 0,
      products: productCount,
      brandContent: Object.keys(file.brandContent ?? {}).length,
      pages: file.pages?.length ?? 0,
    };
  });
}

/** What the file alone cannot show: references to brand content and routes already taken in the database. */
async function conflictsWithDatabase(tx: Transaction, file: SeedFile): Promise<string[]> {
  const groups = file.groups ?? [];
  if (groups.length === 0) return [];
  const problems: string[] = [];
  const knownContent = new Set([
    ...Object.keys(file.brandContent ?? {}),
    ...(await tx.select({ key: brandContent.key }).from(brandContent)).map((row) => row.key),
  ]);
  const routes = groups.flatMap((group) => group.products.map((product) => product.route.toLowerCase()));
  const taken = await tx
    .select({ groupKey: products.groupKey, externalId: products.externalId, route: products.route })
    .from(products)
    .where(inArray(sql`lower(${products.route})`, routes));
  const owners = new Map(taken.map((row) => [row.route.toLowerCase(), row]));
  for (const [g, group] of groups.entries()) {
    if (!knownContent.has(group.content)) {
      problems.push(`groups[${g}].content: no brand content named ${group.content}`);
    }
    for (const [p, product] of group.products.entries()) {
      const owner = owners.get(product.route.toLowerCase());
      if (owner && (owner.groupKey !== group.key || owner.externalId !== product.id)) {
        problems.push(
          `groups[${g}].products[${p}].route: ${product.route} already belongs to ${owner.groupKey} product ${owner.externalId}`,
        );
      }
    }
  }
  return problems;
}

async function importContent(tx: Transaction, file: SeedFile) {
  for (const [key, entry] of Object.entries(file.brandContent ?? {})) {
    const values = {
      key,
      title: entry.title,
      bannerImg: entry.bannerImg,
      backgroundImage: entry.backgroundImage,
      logo: entry.logo,
      whyChoose: entry.whyChoose,
      contact: entry.contact,
      benefits: entry.benefits,
      features: entry.features,
      testimonials: entry.testimonials,
      sample: entry.sample ?? false,
    };
    await tx
      .insert(brandContent)
      .values(values)
      .onConflictDoUpdate({ target: brandContent.key, set: { ...values, updatedAt: sql`now()` } });
  }
  // The store's one phone is the company details' (a web info phone is the same one, checked by the seed schema).
  const { phone, phonecall, ...info } = file.webInfo ?? {};
  const company = file.company ?? (phone && phonecall ? { phone, phonecall } : undefined);
  if (company) {
    await tx
      .insert(companyDetails)
      .values({ id: 1, ...company })
      .onConflictDoUpdate({ target: companyDetails.id, set: { ...company, updatedAt: sql`now()` } });
  }
  if (file.webInfo) {
    const values = info as Omit<NonNullable<typeof file.webInfo>, "phone" | "phonecall">;
    await tx
      .insert(webInfo)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: webInfo.id, set: { ...values, updatedAt: sql`now()` } });
  }
  for (const [key, meta] of Object.entries(file.productMetadata ?? {})) {
    await tx
      .insert(productMetadata)
      .values({ key, ...meta })
      .onConflictDoUpdate({ target: productMetadata.key, set: meta });
  }
  for (const record of file.seo ?? []) {
    const values = {
      route: record.route,
      title: record.title ?? null,
      description: record.description,
      keywords: record.keywords,
    };
    await tx
      .insert(seoRecords)
      .values(values)
      .onConflictDoUpdate({ target: seoRecords.route, set: { ...values, updatedAt: sql`now()` } });
  }
  if (file.banners) {
    // Banners have no natural key: the file's list is the list.
    await tx.delete(banners);
    if (file.banners.length > 0) {
      await tx.insert(banners).values(file.banners.map((banner, position) => ({ ...banner, position })));
    }
  }
  for (const post of file.blogPosts ?? []) {
    await tx.insert(blogPosts).values(post).onConflictDoUpdate({ target: blogPosts.slug, set: post });
  }
  for (const [position, service] of (file.services ?? []).entries()) {
    const values = {
      ...service,
      position,
      packages: service.packages.map(({ price, ...rest }) => ({ ...rest, priceCents: parseMoney(price) })),
    };
    await tx.insert(services).values(values).onConflictDoUpdate({ target: services.slug, set: values });
  }
  const { shippingFlatRate, freeShippingThreshold, sandboxPayments, pricesIncludeTax, taxRegistrations } =
    file.settings ?? {};
  await saveSettings(tx, {
    pricesIncludeTax,
    taxRegistrations,
    shippingFlatCents: shippingFlatRate === undefined ? undefined : parseMoney(shippingFlatRate),
    freeShippingThresholdCents:
      freeShippingThreshold === undefined ? undefined : parseMoney(freeShippingThreshold),
    // The sandbox hands out licence keys for free: a file that does not ask for it (any catalogue of one's own)
    // turns it off. Only the demo store's file asks for it.
    sandboxPayments: sandboxPayments ?? false,
  });
  if (file.taxRules) {
    // Like banners, the file's list is the list.
    await tx.delete(taxRules);
    if (file.taxRules.length > 0)
      await tx.insert(taxRules).values(file.taxRules.map((rule, position) => ({ ...rule, position })));
  }
  for (const code of file.promotions ?? []) {
    await tx
      .insert(promotions)
      .values({
        code: code.code,
        description: code.description,
        kind: code.kind,
        percentBasisPoints: code.kind === "percent" ? (code.percentBasisPoints ?? null) : null,
        amountCents: code.kind === "fixed" && code.amount ? parseMoney(code.amount) : null,
        minSubtotalCents: code.minSubtotal ? parseMoney(code.minSubtotal) : 0,
        usageLimit: code.usageLimit ?? null,
        perCustomerLimit: code.perCustomerLimit ?? null,
      })
      .onConflictDoNothing();
  }
  for (const page of file.pages ?? []) {
    await tx
      .insert(pages)
      .values(page)
      .onConflictDoUpdate({ target: pages.slug, set: { ...page, updatedAt: sql`now()` } });
  }
}

/**
 * The file's sample reviews, approved and marked as samples: those of the file replace the samples stored before
 * (customers' reviews are never touched), so importing twice leaves one of each.
 */
async function importSampleReviews(tx: Transaction, file: SeedFile, source: string) {
  if (!file.sampleReviews) return;
  const rows = [];
  for (const [index, review] of file.sampleReviews.entries()) {
    const [product] = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.groupKey, review.group), eq(products.externalId, review.id)));
    if (!product)
      throw new SeedValidationError(source, [
        `sampleReviews[${index}]: no product ${review.id} in ${review.group}`,
      ]);
    rows.push({
      productId: product.id,
      rating: review.rating,
      body: review.body,
      authorName: review.author,
      status: "approved" as const,
      sample: true,
    });
  }
  await tx.delete(productReviews).where(eq(productReviews.sample, true));
  if (rows.length > 0) await tx.insert(productReviews).values(rows);
}

async function importLicenceKeys(
  tx: Transaction,
  file: SeedFile,
  source: string,
  cipher?: KeyCipher,
): Promise<number> {
  let added = 0;
  for (const [index, pool] of (file.licenceKeys ?? []).entries()) {
    const [product] = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.groupKey, pool.group), eq(products.externalId, pool.id)));
    if (!product)
      throw new SeedValidationError(source, [
        `licenceKeys[${index}]: no product ${pool.id} in ${pool.group}`,
      ]);
    let variantId: number | null = null;
    if (pool.variant !== undefined) {
      const [variant] = await tx
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(
          and(
            eq(productVariants.productId, product.id),
            eq(sql`lower(${productVariants.sku})`, pool.variant.toLowerCase()),
          ),
        );
      if (!variant)
        throw new SeedValidationError(source, [
          `licenceKeys[${index}]: no variant ${pool.variant} of product ${pool.id} in ${pool.group}`,
        ]);
      variantId = variant.id;
    }
    added += (await addLicenceKeys(tx, cipher!, product.id, pool.keys, variantId)).added;
  }
  return added;
}

/** A product's variants as the file gives them, matched by SKU: new ones added, known ones brought up to date. */
async function importVariants(
  tx: Transaction,
  source: string,
  groupKey: string,
  externalId: string,
  variants: NonNullable<z.infer<typeof productSchema>["variants"]>,
) {
  const [product] = await tx
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.groupKey, groupKey), eq(products.externalId, externalId)));
  for (const [position, variant] of variants.entries()) {
    const values = {
      label: variant.label,
      position,
      priceCents: parseMoney(variant.price),
      originalPriceCents: parseMoney(variant.originalPrice),
      termMonths: variant.termMonths ?? null,
    };
    // SKUs are unique in any case (an index on lower(sku)): the one known by that SKU, whatever its spelling.
    const [known] = await tx
      .select({ id: productVariants.id, productId: productVariants.productId })
      .from(productVariants)
      .where(eq(sql`lower(${productVariants.sku})`, variant.sku.toLowerCase()));
    if (!known) {
      await tx.insert(productVariants).values({ productId: product!.id, sku: variant.sku, ...values });
      continue;
    }
    if (known.productId !== product!.id)
      throw new SeedValidationError(source, [
        `${groupKey} product ${externalId}: the SKU ${variant.sku} is another product's variant`,
      ]);
    await tx
      .update(productVariants)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(productVariants.id, known.id));
  }
}

/** set column = excluded.column for an upsert. */
function excluded(columns: string[]) {
  return Object.fromEntries(columns.map((column) => [camel(column), sql.raw(`excluded.${column}`)]));
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

export async function isCatalogueEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(brandGroups);
  return (row?.n ?? 0) === 0;
}
