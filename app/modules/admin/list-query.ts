import { z } from "zod";

/**
 * The query of an admin list, read from the page's URL: a search text, a sort column of the list's own, a
 * direction and a page. Anything unreadable falls back to the default, so a hand-edited URL never breaks a page.
 */
export function listQuerySchema<const Sort extends readonly [string, ...string[]]>(
  sorts: Sort,
  defaults: { sort: Sort[number]; dir: "asc" | "desc" },
) {
  return z.object({
    q: z.string().trim().max(200).catch(""),
    sort: z.enum(sorts).catch(defaults.sort),
    dir: z.enum(["asc", "desc"]).catch(defaults.dir),
    page: z.coerce.number().int().min(1).max(100_000).catch(1),
    pageSize: z.coerce.number().int().min(5).max(100).catch(25),
  });
}

export type ListQuery = { q: string; sort: string; dir: "asc" | "desc"; page: number; pageSize: number };

/** One page of a list and how many rows match in all. */
export type ListPage<Row> = { rows: Row[]; total: number };

/**
 * A list's query from the page's URL. Control characters are dropped first: PostgreSQL text cannot hold a NUL, and
 * none of them means anything in a search.
 */
export function readListQuery<Schema extends z.ZodType>(schema: Schema, request: Request): z.infer<Schema> {
  const params = [...new URL(request.url).searchParams].map(([key, value]) => [
    key,
    value.replace(/\p{Cc}/gu, ""),
  ]);
  return schema.parse(Object.fromEntries(params));
}

/** A search text as an ILIKE pattern: its own %, _ and \ match themselves. */
export function likePattern(text: string, { anchored = false } = {}): string {
  const escaped = text.replace(/[%_\\]/g, "\\$&");
  return anchored ? `${escaped}%` : `%${escaped}%`;
}

export const offsetOf = (query: Pick<ListQuery, "page" | "pageSize">) => (query.page - 1) * query.pageSize;
