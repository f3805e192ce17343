import { eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import sharp from "sharp";
import { brandContent, products } from "~db/schema";
import type { Database } from "~db/client.server";
import { PLACEHOLDER_SIZES, placeholderSvg, type PlaceholderKind } from "./placeholder";

/**
 * The big social networks show no SVG in a link's preview: a page shares its placeholder art as a PNG, drawn from
 * the same SVG (its text in the machine's fonts). Only art a product or a brand uses is drawn, so that no one can
 * make the server draw pictures for any name they like; what is drawn is kept.
 */
const SHARED_KINDS = { product: "product", logo: "logo" } as const satisfies Partial<
  Record<PlaceholderKind, string>
>;

const drawn = new LRUCache<string, Buffer>({ max: 200 });

export const isSharedKind = (kind: string): kind is keyof typeof SHARED_KINDS =>
  Object.hasOwn(SHARED_KINDS, kind);

/** The address and size of the picture a page shares for its image, or the image itself when it is a raster. */
export function shareImage(imagePath: string): { path: string; width?: number; height?: number } {
  const placeholder = /^\/placeholder\/([a-z]+)\/([a-z0-9][a-z0-9-]{0,120})\.svg$/.exec(imagePath);
  if (!placeholder || !isSharedKind(placeholder[1]!)) return { path: imagePath };
  const { width, height } = PLACEHOLDER_SIZES[placeholder[1]];
  return { path: `/placeholder/${placeholder[1]}/${placeholder[2]}.png`, width, height };
}

/** The PNG of `/placeholder/{kind}/{name}.svg`, or null when no product or brand shows that art. */
export async function placeholderPng(db: Database, kind: string, name: string): Promise<Buffer | null> {
  if (!isSharedKind(kind)) return null;
  const svgPath = `/placeholder/${kind}/${name}.svg`;
  const kept = drawn.get(svgPath);
  if (kept) return kept;
  const used =
    kind === "product"
      ? await db.select({ id: products.id }).from(products).where(eq(products.img, svgPath)).limit(1)
      : await db
          .select({ key: brandContent.key })
          .from(brandContent)
          .where(eq(brandContent.logo, svgPath))
          .limit(1);
  if (used.length === 0) return null;
  const png = await sharp(Buffer.from(placeholderSvg(kind, `${name}.svg`)))
    .png()
    .toBuffer();
  drawn.set(svgPath, png);
  return png;
}
