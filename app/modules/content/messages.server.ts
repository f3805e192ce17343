import type { Transaction } from "~db/client.server";
import { contactMessages, quoteRequests, type ServicePackage } from "~db/schema";
import type { ServerContext } from "~/context";
import { consumeLimits, LIMITS } from "~/lib/rate-limit.server";
import {
  CONTACT_FIELDS,
  type ContactField,
  contactSchema,
  type FieldErrors,
  fieldErrors,
  isHoneypotFilled,
  QUOTE_FIELDS,
  type QuoteField,
  quoteRequestSchema,
} from "./schemas";

/**
 * What a form submission came to: stored (or silently dropped, when a bot filled the honeypot), or refused with a
 * message per field and the values to show again. A refused submission writes nothing.
 */
export type SubmitResult<Field extends string> =
  | { ok: true; stored: true; id: number }
  | { ok: true; stored: false }
  | {
      ok: false;
      errors: FieldErrors<Field>;
      values: Partial<Record<Field, string>>;
      /** Too many submissions from this client: the message says how long to wait. */
      limited?: { message: string; retryAfterSeconds: number };
    };

/** The submitted text of the known fields, to fill the form in again after a refusal. */
function echo<Field extends string>(
  input: Record<string, unknown>,
  fields: readonly Field[],
): Partial<Record<Field, string>> {
  const values: Partial<Record<Field, string>> = {};
  for (const field of fields) {
    const value = input[field];
    if (typeof value === "string") values[field] = value;
  }
  return values;
}

/** What a stored message looked like, for the caller's work in the same transaction (telling the owner). */
export type StoredMessage = {
  kind: "contact" | "quote";
  name: string;
  email: string;
  phone: string;
  about: string;
  message: string;
};
type OnStored = (tx: Transaction, message: StoredMessage) => Promise<unknown>;

/**
 * A message from the contact form, for the admin's inbox; a client may send a few an hour. `onStored` runs in the
 * transaction that stores it (the owner's e-mail: both or neither).
 */
export async function submitContactMessage(
  { db }: Pick<ServerContext, "db">,
  input: Record<string, unknown>,
  client: string,
  onStored?: OnStored,
): Promise<SubmitResult<ContactField>> {
  if (isHoneypotFilled(input)) return { ok: true, stored: false };
  const parsed = contactSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, errors: fieldErrors(parsed.error), values: echo(input, CONTACT_FIELDS) };
  }
  const limited = await consumeLimits(db, [{ limit: LIMITS.contactPerClient, key: client }]);
  if (!limited.ok) return { ok: false, errors: {}, values: echo(input, CONTACT_FIELDS), limited };
  const row = await db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(contactMessages)
      .values(parsed.data)
      .returning({ id: contactMessages.id });
    const { name, email, phone, subject, message } = parsed.data;
    await onStored?.(tx, { kind: "contact", name, email, phone: phone ?? "", about: subject, message });
    return stored;
  });
  if (!row) throw new Error("the contact message was not stored");
  return { ok: true, stored: true, id: row.id };
}

/** A quote request from a digital-service page, for the admin's inbox; a client may send a few an hour. */
export async function submitQuoteRequest(
  { db }: Pick<ServerContext, "db">,
  service: { slug: string; packages: Pick<ServicePackage, "name">[] },
  input: Record<string, unknown>,
  client: string,
  onStored?: OnStored,
): Promise<SubmitResult<QuoteField>> {
  if (isHoneypotFilled(input)) return { ok: true, stored: false };
  const parsed = quoteRequestSchema(service.packages.map((pkg) => pkg.name)).safeParse(input);
  if (!parsed.success) {
    return { ok: false, errors: fieldErrors(parsed.error), values: echo(input, QUOTE_FIELDS) };
  }
  const limited = await consumeLimits(db, [{ limit: LIMITS.quotePerClient, key: client }]);
  if (!limited.ok) return { ok: false, errors: {}, values: echo(input, QUOTE_FIELDS), limited };
  const row = await db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(quoteRequests)
      .values({ serviceSlug: service.slug, ...parsed.data })
      .returning({ id: quoteRequests.id });
    const { name, email, phone, message, packageName } = parsed.data;
    const about = `${service.slug}${packageName ? ` (${packageName})` : ""}`;
    await onStored?.(tx, { kind: "quote", name, email, phone: phone ?? "", about, message });
    return stored;
  });
  if (!row) throw new Error("the quote request was not stored");
  return { ok: true, stored: true, id: row.id };
}
