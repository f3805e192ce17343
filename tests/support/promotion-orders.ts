import { randomUUID } from "node:crypto";
import type { Database } from "~db/client.server";
import { orders } from "~db/schema";
import type { OrderStatus } from "~db/schema/orders";
import { address } from "./orders";

/**
 * An order as checkout leaves one placed with a discount code: the code's id and text, the discount, and a total
 * that adds up (subtotal + shipping - discount; no tax). For the owner's figures of a code, which only read orders.
 */
export async function insertOrderWithCode(
  db: Database,
  order: {
    promotionId: number | null;
    code: string;
    subtotalCents: number;
    discountCents: number;
    shippingCents?: number;
    refundedCents?: number;
    status?: OrderStatus;
    email?: string;
    isTest?: boolean;
  },
) {
  const shippingCents = order.shippingCents ?? 0;
  const status = order.status ?? "paid";
  const [row] = await db
    .insert(orders)
    .values({
      idempotencyKey: randomUUID(),
      email: order.email ?? "buyer@example.com",
      status,
      paymentStatus: status === "pending_payment" || status === "cancelled" ? "pending" : "paid",
      paymentMethod: "sandbox",
      isTest: order.isTest ?? false,
      subtotalCents: order.subtotalCents,
      shippingCents,
      totalCents: order.subtotalCents + shippingCents - order.discountCents,
      refundedCents: order.refundedCents ?? 0,
      billingAddress: address,
      promotionId: order.promotionId,
      discountCode: order.code,
      discountCents: order.discountCents,
    })
    .returning();
  return row!;
}
