import { eq } from "drizzle-orm";
import { pages } from "~db/schema";
import type { ServerContext } from "~/context";

/**
 * The day a page was last changed, as it shows it: "March 12, 2027" (UTC). Written on the server: a browser's first
 * date formatter costs a slow phone about 30 ms of its main thread (its locale data) while the page hydrates.
 */
const UPDATED_DAY = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
export const updatedOn = (date: Date) => UPDATED_DAY.format(date);

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
