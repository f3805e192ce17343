import { z } from "zod";
import { isOneLine, ONE_LINE_MESSAGE } from "~/lib/forms";
import { parseMoney } from "~/lib/money";
import { CARRIER_KEYS, CARRIERS, knownCarrierNamed } from "./tracking";

/** The same rule addShipment applies, so the form can say what is wrong before it is sent. */
export const trackingNumberSchema = z
  .string({ error: "Enter the tracking number" })
  .trim()
  .min(1, "Enter the tracking number")
  .regex(/^[A-Za-z0-9 -]{4,60}$/, "Enter a tracking number of 4 to 60 letters, digits, spaces or dashes");

const blankIsMissing = (value: unknown) => (value === "" || value === "all" ? undefined : value);

const lineIdField = (what: string) =>
  z.preprocess(
    blankIsMissing,
    z.coerce
      .number({ error: `Choose the line to ${what}` })
      .int(`Choose the line to ${what}`)
      .positive(`Choose the line to ${what}`)
      .max(2_147_483_647, `Choose the line to ${what}`)
      .optional(),
  );

/**
 * A shipment: which line (none: every line still to ship), the carrier (another one by its name, which the
 * customer reads), its tracking number and maybe a link.
 */
export const shipmentInput = z
  .object({
    trackingNumber: trackingNumberSchema,
    carrier: z.enum(CARRIER_KEYS, { error: "Choose the carrier" }),
    otherCarrier: z.preprocess(
      (value) => (value === "" ? undefined : value),
      z
        .string("Enter the carrier's name")
        .trim()
        .max(60, "Enter a carrier's name of at most 60 characters")
        .refine(isOneLine, ONE_LINE_MESSAGE)
        // Stored where a known carrier's key is: its name must not read as one (nor as "Other carrier").
        .superRefine((name, ctx) => {
          const known = knownCarrierNamed(name);
          if (known === "other") ctx.addIssue({ code: "custom", message: "Enter the carrier's name" });
          else if (known)
            ctx.addIssue({
              code: "custom",
              message: `${CARRIERS[known].name} is in the list: choose it there`,
            });
        })
        .optional(),
    ),
    trackingUrl: z.preprocess(
      blankIsMissing,
      z
        .url({
          protocol: /^https$/,
          hostname: z.regexes.domain,
          error: "Enter the tracking page's address, starting with https://",
        })
        .max(500, "Enter a tracking address of at most 500 characters")
        .optional(),
    ),
    lineId: lineIdField("ship"),
  })
  .refine((shipment) => shipment.carrier !== "other" || Boolean(shipment.otherCarrier), {
    path: ["otherCarrier"],
    message: "Enter the carrier's name",
    when: ({ value }) => (value as { carrier?: unknown } | null)?.carrier === "other",
  });

const reasonField = z
  .string()
  .trim()
  .max(500, "Write the reason in at most 500 characters")
  .optional()
  .transform((value) => value ?? "");

/** A refund: everything left, one line, or an amount in cents. */
export const refundInput = z.discriminatedUnion(
  "mode",
  [
    z.object({ mode: z.literal("full"), reason: reasonField }),
    z.object({
      mode: z.literal("line"),
      lineId: z.number({ error: "Choose the line to refund" }).int().positive(),
      reason: reasonField,
    }),
    z.object({
      mode: z.literal("amount"),
      amountCents: z
        .number({ error: "Enter the amount to refund" })
        .int("Enter the amount in cents")
        .positive("Enter an amount above zero"),
      reason: reasonField,
    }),
  ],
  { error: "Choose what to refund" },
);

export const orderNoteSchema = z
  .string({ error: "Write the note" })
  .trim()
  .min(1, "Write the note")
  .max(2000, "Write the note in at most 2,000 characters");

export const customerNoteSchema = z.string().trim().max(1000, "Write the note in at most 1,000 characters");

const confirmed = (what: string) =>
  z.literal("yes", { error: `Tick the box to confirm you want to ${what} this order` });

/** The admin's order actions: one form each, told apart by their intent. */
export const shipForm = shipmentInput.safeExtend({ intent: z.literal("ship") });
export const cancelForm = z.object({ intent: z.literal("cancel"), confirm: confirmed("cancel") });
export const refundForm = z
  .object({
    intent: z.literal("refund"),
    confirm: confirmed("refund"),
    mode: z.preprocess(
      (value) => value ?? "full",
      z.enum(["full", "line", "amount"], { error: "Choose what to refund" }),
    ),
    lineId: lineIdField("refund"),
    amount: z.string().trim().max(20).optional(),
    reason: reasonField,
  })
  .superRefine((form, context) => {
    if (form.mode === "line" && form.lineId === undefined)
      context.addIssue({ code: "custom", path: ["lineId"], message: "Choose the line to refund" });
    if (form.mode === "amount" && refundAmountCents(form.amount) === null)
      context.addIssue({
        code: "custom",
        path: ["amount"],
        message: "Enter the amount to refund, like 12.50 (above zero)",
      });
  });
export const markPaidForm = z.object({ intent: z.literal("mark-paid") });
/** A held order's decision (ADR 0035): approving delivers it; rejecting refunds it in full, so it is confirmed. */
export const approveForm = z.object({ intent: z.literal("approve") });
export const rejectForm = z.object({
  intent: z.literal("reject"),
  confirm: confirmed("reject and refund"),
  reason: reasonField,
});
export const noteForm = z.object({ intent: z.literal("note"), note: orderNoteSchema });
export const customerNoteForm = z.object({
  intent: z.literal("customer-note"),
  customerNote: customerNoteSchema.optional().transform((value) => value ?? ""),
});

/** "12.50" -> 1250; null for anything that is not a positive amount with up to two decimals. */
export function refundAmountCents(text: string | undefined): number | null {
  if (!text) return null;
  try {
    const cents = parseMoney(text.replace(/^\$/, ""));
    return cents > 0 ? cents : null;
  } catch {
    return null;
  }
}

/** What the refund form asks for, as the refund module takes it. */
export function refundFromForm(form: z.infer<typeof refundForm>): z.input<typeof refundInput> {
  if (form.mode === "line") return { mode: "line", lineId: form.lineId!, reason: form.reason };
  if (form.mode === "amount")
    return { mode: "amount", amountCents: refundAmountCents(form.amount)!, reason: form.reason };
  return { mode: "full", reason: form.reason };
}

export const orderActionForm = z.discriminatedUnion(
  "intent",
  [markPaidForm, shipForm, cancelForm, refundForm, approveForm, rejectForm, noteForm, customerNoteForm],
  { error: "Choose what to do with the form's buttons" },
);
