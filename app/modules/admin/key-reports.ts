import { z } from "zod";

/** How long the store's reply to a refused key report may be (the table checks the same bounds). */
export const REPLY_MIN = 2;
export const REPLY_MAX = 1000;

/** The reply to a refused report, as the customer will read it. */
export const rejectReply = z
  .string()
  .trim()
  .min(REPLY_MIN, "Write the customer a short reply: why the key is not replaced.")
  .max(REPLY_MAX, `Keep the reply to ${REPLY_MAX} characters.`);
