import { data } from "react-router";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { buyerAccess } from "~/modules/orders/buyer-access.server";
import { documentDownload, orderDocumentPdf } from "~/modules/orders/invoices.server";
import type { Route } from "./+types/order-document";

/**
 * An order's invoice or credit note as a PDF, for whoever may see the order (its current secret link, or its
 * account signed in). Anyone else, an old link, or a document that is not this order's gets the same 404.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const access = await buyerAccess(request, context, params.number);
  const document =
    access?.kind === "buyer" ? await orderDocumentPdf(context.db, access.orderId, params.file) : null;
  if (!document) throw data("There is no such document.", { status: 404, headers: PRIVATE_HEADERS });
  return documentDownload(document);
}
