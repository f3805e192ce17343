import { eq } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { orders } from "~db/schema";
import type { Auth } from "~/modules/accounts/auth.server";
import { DELETED_CUSTOMER_EMAIL } from "~/modules/accounts/personal-data.server";
import { getViewer } from "~/modules/accounts/session.server";
import { checkOrderLink } from "./access.server";

/**
 * Who may see an order, and so its invoice and credit notes: the buyer with the order's current secret link (from
 * the e-mails), or signed in to the account the order belongs to. A link a newer one replaced is "retired" (the
 * order page says how to get the new one), or, when the customer deleted their account, "erased" (no new link can
 * reach them); anything else is null, answered like an order that does not exist.
 */
export async function buyerAccess(
  request: Request,
  context: { db: Database; auth: Auth; env: { AUTH_SECRET: string } },
  numberParam: string | undefined,
): Promise<
  { kind: "buyer"; orderId: number; number: number } | { kind: "retired" | "erased"; number: number } | null
> {
  // Order numbers are positive 32-bit integers: anything else is no order (and never reaches the database).
  const number = /^[1-9]\d{0,9}$/.test(numberParam ?? "") ? Number(numberParam) : 0;
  if (number < 1 || number > 2_147_483_647) return null;
  const [order] = await context.db
    .select({
      id: orders.id,
      number: orders.number,
      accessVersion: orders.accessVersion,
      userId: orders.userId,
      email: orders.email,
    })
    .from(orders)
    .where(eq(orders.number, number));
  if (!order) return null;
  const link = checkOrderLink(context.env.AUTH_SECRET, order, new URL(request.url).searchParams.get("key"));
  if (link === "current") return { kind: "buyer", orderId: order.id, number };
  const viewer = await getViewer(request, context);
  if (viewer !== null && order.userId !== null && order.userId === viewer.id)
    return { kind: "buyer", orderId: order.id, number };
  if (link !== "retired") return null;
  return { kind: order.email === DELETED_CUSTOMER_EMAIL ? "erased" : "retired", number };
}
