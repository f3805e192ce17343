import { eq } from "drizzle-orm";
import { pages } from "~db/schema";
import type { ServerContext } from "~/context";

export type ContentPage = { slug: string; title: string; body: string; updatedAt: Date };

/** An editable Markdown page (about, disclaimer, policies) by its slug, case-insensitively; null when there is none. */
export async function getPage({ db }: Pick<ServerContext, "db">, slug: string): Promise<ContentPage | null> {
  const [row] = await db
    .select({ slug: pages.slug, title: pages.title, body: pages.body, updatedAt: pages.updatedAt })
    .from(pages)
    .where(eq(pages.slug, slug.toLowerCase()))
    .limit(1);
  return row ?? null;
}
