import { z } from "zod";
import { readStored, writeStored } from "~/lib/browser-storage";

/**
 * What the shopper has typed into the checkout, kept in this tab's session storage so that a trip back to the cart
 * (or a reload) loses nothing; removed once the order is placed, and with everything else at sign-out. Only the
 * fields named here are ever kept: no card details (Stripe takes those on its own page), no password, no consent.
 */
const DRAFT_KEY = "checkout-draft";

const ADDRESS_FIELDS = [
  "name",
  "line1",
  "line2",
  "city",
  "region",
  "postalCode",
  "country",
  "phone",
] as const;

const text = z.string().max(1_000);
const addressDraft = z.partialRecord(z.enum(ADDRESS_FIELDS), text);

const draftSchema = z.object({
  email: text.optional(),
  buyerTaxId: text.optional(),
  billing: addressDraft.optional(),
  shipToBilling: z.boolean().optional(),
  shipping: addressDraft.optional(),
  paymentMethod: text.optional(),
});

export type CheckoutDraft = z.infer<typeof draftSchema>;
export type AddressDraft = NonNullable<CheckoutDraft["billing"]>;

const isDraft = (value: unknown): value is CheckoutDraft => draftSchema.safeParse(value).success;

export function readCheckoutDraft(): CheckoutDraft | null {
  return readStored<CheckoutDraft | null>(
    DRAFT_KEY,
    null,
    (value): value is CheckoutDraft | null => value === null || isDraft(value),
    "Stored checkout form is not one; starting afresh",
    "session",
  );
}

const addressOf = (form: FormData, prefix: string): AddressDraft | undefined => {
  if (!form.has(`${prefix}.country`)) return undefined;
  const address: AddressDraft = {};
  for (const field of ADDRESS_FIELDS) {
    const value = form.get(`${prefix}.${field}`);
    if (typeof value === "string") address[field] = value;
  }
  return address;
};

/**
 * Keeps the checkout form as it is now. A shipping address hidden behind "Ship to my billing address" is kept as it
 * was last typed, for when the box is unticked again.
 */
export function saveCheckoutDraft(form: HTMLFormElement) {
  const values = new FormData(form);
  const string = (name: string) => {
    const value = values.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const before = readCheckoutDraft();
  // The shipping choice is on the form only while the cart holds something to ship.
  const shipChoice = form.elements.namedItem("shipToBilling");
  const draft = draftSchema.safeParse({
    email: string("email"),
    buyerTaxId: string("buyerTaxId"),
    billing: addressOf(values, "billing"),
    shipToBilling: shipChoice instanceof HTMLInputElement ? shipChoice.checked : before?.shipToBilling,
    shipping: addressOf(values, "shipping") ?? before?.shipping,
    paymentMethod: string("paymentMethod"),
  } satisfies CheckoutDraft);
  // Text past any field's limit (the form refuses it anyway) leaves the last draft as it was.
  if (draft.success) writeStored(DRAFT_KEY, draft.data, "session");
}

export function clearCheckoutDraft() {
  writeStored(DRAFT_KEY, null, "session");
}
