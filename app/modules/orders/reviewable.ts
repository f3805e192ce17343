/**
 * Orders whose lines count as bought, for a review: paid, or paid and fulfilled. A pending, held (payment under
 * review), cancelled or refunded order does not, and neither does a line refunded on its own (ADR 0038).
 */
export const REVIEWABLE_ORDER_STATUSES = ["paid", "fulfilled"] as const;

/** Whether a line of an order in this status may be reviewed by its buyer. */
export const lineReviewable = (orderStatus: string, refunded: boolean) =>
  !refunded && (REVIEWABLE_ORDER_STATUSES as readonly string[]).includes(orderStatus);
