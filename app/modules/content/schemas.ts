import { z } from "zod";
import { formatCount } from "~/lib/money";

/**
 * The zod schemas of the content forms. Each is shared by the form (checked in the browser before sending, and its
 * limits become the inputs' maxLength) and by the action on the server (the check that counts).
 */

/** A hidden field people never see or fill; anything in it marks the submission as a bot's, which is dropped. */
export const HONEYPOT_FIELD = "website";

export function isHoneypotFilled(input: Record<string, unknown>): boolean {
  const value = input[HONEYPOT_FIELD];
  return typeof value === "string" && value.trim() !== "";
}

export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  phone: 30,
  subject: 150,
  messageMin: 10,
  messageMax: 5000,
} as const;

export const QUOTE_LIMITS = { ...CONTACT_LIMITS, company: 150, packageName: 100 } as const;

const required = (label: string, max: number) =>
  z
    .string({ error: `Please enter ${label}.` })
    .trim()
    .min(1, `Please enter ${label}.`)
    .max(max, `Please keep this under ${max} characters.`);

const email = z
  .string({ error: "Please enter your e-mail address." })
  .trim()
  .min(1, "Please enter your e-mail address.")
  .max(CONTACT_LIMITS.email, `Please keep this under ${CONTACT_LIMITS.email} characters.`)
  // Only checked once the field is filled in: an empty field gets one message, not two.
  .pipe(z.email("Please enter a valid e-mail address, like name@example.com."));

/** Optional; when given, 7 to 15 digits with the usual separators. */
const phone = z
  .string()
  .trim()
  .max(CONTACT_LIMITS.phone, `Please keep this under ${CONTACT_LIMITS.phone} characters.`)
  .refine((value) => {
    if (value === "") return true;
    const digits = value.replace(/\D/g, "").length;
    return /^\+?[\d\s().-]+$/.test(value) && digits >= 7 && digits <= 15;
  }, "Please enter a phone number like (212) 555-0100 or +1 212 555 0100, or leave it empty.")
  .default("");

const optional = (max: number) =>
  z.string().trim().max(max, `Please keep this under ${max} characters.`).default("");

const message = (label: string) =>
  z
    .string({ error: `Please enter ${label}.` })
    .trim()
    .min(1, `Please enter ${label}.`)
    .min(CONTACT_LIMITS.messageMin, `Please write at least ${CONTACT_LIMITS.messageMin} characters.`)
    .max(
      CONTACT_LIMITS.messageMax,
      `Please keep your message under ${formatCount(CONTACT_LIMITS.messageMax)} characters.`,
    );

export const contactSchema = z.object({
  name: required("your name", CONTACT_LIMITS.name),
  email,
  phone,
  subject: required("a subject", CONTACT_LIMITS.subject),
  message: message("your message"),
});

export type ContactInput = z.infer<typeof contactSchema>;
export type ContactField = keyof ContactInput;
export const CONTACT_FIELDS = Object.keys(contactSchema.shape) as ContactField[];

/** The quote-request form of a service page; the package must be one of that service's, or none ("not sure"). */
export function quoteRequestSchema(packageNames: readonly string[]) {
  return z.object({
    packageName: z
      .string()
      .trim()
      .max(QUOTE_LIMITS.packageName, "Please choose one of the packages listed.")
      .refine(
        (value) => value === "" || packageNames.includes(value),
        "Please choose one of the packages listed, or “Not sure yet”.",
      )
      .default(""),
    name: required("your name", QUOTE_LIMITS.name),
    email,
    phone,
    company: optional(QUOTE_LIMITS.company),
    message: message("a few words about your project"),
  });
}

export type QuoteInput = z.infer<ReturnType<typeof quoteRequestSchema>>;
export type QuoteField = keyof QuoteInput;
export const QUOTE_FIELDS: QuoteField[] = ["packageName", "name", "email", "phone", "company", "message"];

export { checkForm, fieldErrors, type FieldErrors } from "~/lib/forms";
import type { ActionReply } from "~/lib/action-reply";
import type { FieldErrors } from "~/lib/forms";

/** What a contact or quote form's refusal holds beyond any action's answer: a message per field and the values. */
export type InquiryRefusal<Field extends string> = {
  errors: FieldErrors<Field>;
  values: Partial<Record<Field, string>>;
};

/** What an action hands back to its form after a refusal: a message per field, the values, or one for the form. */
export type FormFeedback<Field extends string> = ActionReply<InquiryRefusal<Field>>;
