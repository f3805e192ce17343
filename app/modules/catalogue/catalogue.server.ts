import { and, arrayContains, asc, eq } from "drizzle-orm";
import { brandGroups, products } from "~db/schema";
import type { ServerContext } from "~/context";

/** What a product card needs; prices in cents. */
export const productCardColumns = {
  id: products.id,
  name: products.name,
  priceCents: products.priceCents,
  originalPriceCents: products.originalPriceCents,
  img: products.img,
  route: products.route,
  groupKey: products.groupKey,
  brandName: brandGroups.name,
};

export type ProductCard = {
  id: number;
  name: string;
  priceCents: number;
  originalPriceCents: number;
  img: string;
  route: string;
  groupKey: string;
  brandName: string;
};

/** Visible products carrying a category tag (best-seller, top-rated, ...), in catalogue order. */
export async function productsWithTag(
  { db }: Pick<ServerContext, "db">,
  tag: string,
  limit?: number,
): Promise<ProductCard[]> {
  const query = db
    .select(productCardColumns)
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(and(eq(products.hidden, false), arrayContains(products.categories, [tag])))
    .orderBy(asc(brandGroups.position), asc(products.position));
  return limit ? query.limit(limit) : query;
}

export type NavGroup = { key: string; slug: string; name: string; section: string };

/** Brand groups for the category menu and footer, in catalogue order. */
export async function getNavigation({ db }: Pick<ServerContext, "db">): Promise<NavGroup[]> {
  return db
    .select({
      key: brandGroups.key,
      slug: brandGroups.slug,
      name: brandGroups.name,
      section: brandGroups.section,
    })
    .from(brandGroups)
    .orderBy(asc(brandGroups.position));
}
