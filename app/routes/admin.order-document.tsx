import { data } from "react-router";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { orderIdOf } from "~/modules/admin/orders.server";
import { documentDownload, orderDocumentPdf } from "~/modules/orders/invoices.server";
import type { Route } from "./+types/admin.order-document";

/** An order's invoice ("invoice.pdf", issued now for an order paid before invoices existed) or credit note. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const orderId = /^\d{1,9}$/.test(params.number) ? await orderIdOf(context.db, Number(params.number)) : null;
  const document = orderId ? await orderDocumentPdf(context.db, orderId, params.file) : null;
  if (!document) throw data("There is no such document.", { status: 404, headers: PRIVATE_HEADERS });
  return documentDownload(document);
}
