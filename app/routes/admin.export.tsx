import { data } from "react-router";
import { z } from "zod";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { invoicesCsv, keyPoolsCsv, ordersCsv } from "~/modules/admin/exports.server";
import { exportRange } from "~/modules/admin/invoice-list.server";
import { readListQuery } from "~/modules/admin/list-query";
import { orderListQuery } from "~/modules/admin/orders.server";
import { productsCsv, variantsCsv } from "~/modules/admin/product-export.server";
import { productListQuery, productsForExport } from "~/modules/admin/products.server";
import type { Route } from "./+types/admin.export";

const productParam = z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined);

/**
 * CSV downloads for the admin: /admin/export/orders.csv (the orders list's filters), /admin/export/keys.csv,
 * /admin/export/products.csv (the products list's filters, in the import's format), /admin/export/variants.csv
 * (every variant, in the variants import's format) and
 * /admin/export/invoices.csv?from=YYYY-MM-DD&to=YYYY-MM-DD (invoices and credit notes of those days, for the
 * accountant; a missing or impossible range is a 400 that says what is wrong).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const search = Object.fromEntries(new URL(request.url).searchParams);
  const day = new Date().toISOString().slice(0, 10);
  let csv: string;
  let name: string;
  if (params.what === "orders.csv") {
    csv = await ordersCsv(context.db, orderListQuery.parse(search));
    name = `orders-${day}.csv`;
  } else if (params.what === "keys.csv") {
    csv = await keyPoolsCsv(context.db, productParam.parse(search.product));
    name = `licence-keys-${day}.csv`;
  } else if (params.what === "products.csv") {
    csv = productsCsv(await productsForExport(context.db, readListQuery(productListQuery, request)));
    name = `products-${day}.csv`;
  } else if (params.what === "variants.csv") {
    csv = await variantsCsv(context.db);
    name = `variants-${day}.csv`;
  } else if (params.what === "invoices.csv") {
    const range = exportRange.safeParse({ from: search.from ?? "", to: search.to ?? "" });
    if (!range.success) {
      const issue = range.error.issues[0]!;
      throw data(
        { message: `${issue.path.join(".") || "range"}: ${issue.message}` },
        { status: 400, headers: PRIVATE_HEADERS },
      );
    }
    csv = await invoicesCsv(context.db, range.data);
    name = `invoices-${range.data.from}-to-${range.data.to}.csv`;
  } else {
    throw data({ message: "There is no such export." }, { status: 404, headers: PRIVATE_HEADERS });
  }
  return new Response(`\uFEFF${csv}`, {
    headers: {
      ...PRIVATE_HEADERS,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
