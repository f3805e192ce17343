import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { readListQuery } from "~/modules/admin/list-query";
import { productsCsv } from "~/modules/admin/product-export.server";
import { productListQuery, productsForExport } from "~/modules/admin/products.server";
import type { Route } from "./+types/admin.products-export";

/** The products of the admin list's filters and sort as a CSV file in the import's format. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const query = readListQuery(productListQuery, request);
  const csv = productsCsv(await productsForExport(context.db, query));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      ...PRIVATE_HEADERS,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="products-${day}.csv"`,
    },
  });
}
