/** Order statuses as customers read them. */
export const ORDER_STATUS_LABELS: Record<string, string> = {
  pending_payment: "Waiting for payment",
  paid: "Paid",
  fulfilled: "Complete",
  cancelled: "Cancelled",
  refunded: "Refunded",
};
