import { z } from "zod";

/** The same rule addShipment applies, so the form can say what is wrong before it is sent. */
export const trackingNumberSchema = z
  .string({ error: "Enter the tracking number" })
  .trim()
  .min(1, "Enter the tracking number")
  .regex(/^[A-Za-z0-9 -]{4,60}$/, "Enter a tracking number of 4 to 60 letters, digits, spaces or dashes");

const confirmed = (what: string) =>
  z.literal("yes", { error: `Tick the box to confirm you want to ${what} this order` });

/** The admin's order actions: one form each, told apart by their intent. */
export const shipForm = z.object({ intent: z.literal("ship"), trackingNumber: trackingNumberSchema });
export const cancelForm = z.object({ intent: z.literal("cancel"), confirm: confirmed("cancel") });
export const refundForm = z.object({ intent: z.literal("refund"), confirm: confirmed("refund") });
export const markPaidForm = z.object({ intent: z.literal("mark-paid") });

export const orderActionForm = z.discriminatedUnion(
  "intent",
  [markPaidForm, shipForm, cancelForm, refundForm],
  { error: "Choose what to do with the form's buttons" },
);
export type OrderActionForm = z.infer<typeof orderActionForm>;
