import { z } from "zod";
import { isOneLine, ONE_LINE_MESSAGE } from "~/lib/forms";

/**
 * The zod schemas of the admin's content forms (blogs, banners, web info, pages, messages). Each is shared by the
 * form, checked in the browser before sending, and by the action, the check that counts.
 */

/** An image: a path on this site (an uploaded file, a placeholder) or an https:// address. */
export const contentImage = (label = "an image") =>
  z
    .string({ error: `Give ${label}` })
    .trim()
    .min(1, `Give ${label}`)
    .max(2000, "At most 2000 characters")
    .refine(
      (value) => (value.startsWith("/") && !value.startsWith("//")) || /^https:\/\/[^\s]+$/.test(value),
      "Use a site path like /placeholder/... or an https:// address",
    );

/** A link a visitor follows: a path on this site or an https:// address. */
export const contentLink = z
  .string({ error: "Enter the link" })
  .trim()
  .min(1, "Enter the link")
  .max(2000, "At most 2000 characters")
  .refine(
    (value) => /^\/(?!\/)[^\s]*$/.test(value) || /^https:\/\/[^\s]+$/.test(value),
    "Use a site path like /antivirus or an https:// address",
  );

const text = (label: string, max: number) =>
  z
    .string({ error: `Enter ${label}` })
    .trim()
    .min(1, `Enter ${label}`)
    .max(max, `At most ${max.toLocaleString("en-US")} characters`);

/** A name or title: one line. */
const line = (label: string, max: number) => text(label, max).refine(isOneLine, ONE_LINE_MESSAGE);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max.toLocaleString("en-US")} characters`)
    .default("");

/** A checkbox: "on" when ticked, absent when not. */
export const checkbox = z.preprocess(
  (value) => value === "on" || value === "true" || value === true,
  z.boolean(),
);

/**
 * A list posted by a form: fields named "features.0", "features.1"... arrive (through formToObject) as an object
 * with numeric keys; arrays pass through. Anything else is left for the list schema to refuse.
 */
export function asList(value: unknown): unknown {
  if (Array.isArray(value) || value === null || typeof value !== "object") return value;
  return Object.entries(value as Record<string, unknown>)
    .filter(([key]) => /^\d{1,3}$/.test(key))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, item]) => item);
}

/** Adds an issue on every entry whose key has been seen before, so the form can mark the second copy. */
export function refuseDuplicates<Item>(
  items: Item[],
  keyOf: (item: Item) => string,
  ctx: z.RefinementCtx,
  message: string,
  field?: string,
) {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const key = keyOf(item).toLowerCase();
    if (seen.has(key)) ctx.addIssue({ code: "custom", path: field ? [index, field] : [index], message });
    seen.add(key);
  });
}

/** A calendar day, YYYY-MM-DD, that exists. */
const day = z
  .string({ error: "Enter the date" })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter the date like 2026-03-17")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, "This date does not exist")
  .refine((value) => value >= "2000-01-01" && value <= "2100-12-31", "Enter a date between 2000 and 2100");

export const BLOG_LIMITS = { slug: 120, title: 200, excerpt: 1000 } as const;

/** A blog teaser: the post itself lives on the external blog at /blog/{slug}. */
export const blogFormSchema = z.object({
  slug: z
    .string({ error: "Enter the post's slug" })
    .trim()
    .toLowerCase()
    .min(1, "Enter the post's slug")
    .max(BLOG_LIMITS.slug, `At most ${BLOG_LIMITS.slug} characters`)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Use lower-case words joined by hyphens, like how-to-activate"),
  title: line("a title", BLOG_LIMITS.title),
  excerpt: text("an excerpt", BLOG_LIMITS.excerpt),
  image: contentImage("an image"),
  publishedAt: day,
});

export type BlogForm = z.infer<typeof blogFormSchema>;

export const BANNER_LIMITS = { title: 200, subtitle: 500, alt: 300 } as const;

export const bannerFormSchema = z.object({
  title: line("a title", BANNER_LIMITS.title),
  subtitle: optionalText(BANNER_LIMITS.subtitle),
  image: contentImage("an image"),
  alt: line("a description of the image for screen readers", BANNER_LIMITS.alt),
  link: contentLink,
  /** Left empty: a new banner goes last, an edited one keeps its place. */
  position: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce
      .number({ error: "Enter a whole number" })
      .int("Enter a whole number")
      .min(0, "At least 0")
      .max(100_000, "At most 100000")
      .optional(),
  ),
  active: checkbox,
});

export type BannerForm = z.infer<typeof bannerFormSchema>;

/** A phone in local format, like (212) 555-0100: digits and the usual separators, 7 to 15 digits. */
export const localPhone = z
  .string({ error: "Enter the phone" })
  .trim()
  .min(1, "Enter the phone in local format")
  .max(40, "At most 40 characters")
  .refine((value) => {
    const digits = value.replace(/\D/g, "").length;
    return /^\+?[\d\s().-]+$/.test(value) && digits >= 7 && digits <= 15;
  }, "Enter a phone number like (212) 555-0100");

/**
 * A US phone number, like +1 (212) 555-0105 or (212) 555-0105: ten digits after an optional country code 1, the
 * area code and the exchange each starting with 2 to 9 (the North American numbering plan).
 */
export const usPhone = z
  .string({ error: "Enter the support phone" })
  .trim()
  .min(1, "Enter the support phone")
  .max(40, "At most 40 characters")
  .refine((value) => {
    if (!/^(\+1)?[\d\s().-]+$/.test(value)) return false;
    const digits = value.replace(/\D/g, "");
    return /^1?[2-9]\d{2}[2-9]\d{6}$/.test(digits);
  }, "Enter a US number, like +1 (212) 555-0105");

/** A phone in international format, like +12125550100. */
const INTERNATIONAL_PHONE = "Enter the international number like +12125550123";
export const internationalPhone = z
  .string({ error: "Enter the international number" })
  .trim()
  // The pattern's own bounds, said to the form as its limits: a + and at most 15 digits.
  .min(1, INTERNATIONAL_PHONE)
  .max(16, INTERNATIONAL_PHONE)
  .regex(/^\+\d{6,15}$/, INTERNATIONAL_PHONE);

/** Whether a local and an international number are the same line (the local digits, less trunk zeros, end it). */
export const samePhone = (local: string, international: string) =>
  international.replace(/\D/g, "").endsWith(local.replace(/\D/g, "").replace(/^0+/, ""));

export const WEB_INFO_LIMITS = { name: 120, email: 254, address: 500 } as const;

/** The store's phone in both formats, which must be the same line: the company details record holds it. */
export const companyFormSchema = z
  .object({ phone: localPhone, phonecall: internationalPhone })
  .superRefine((company, ctx) => {
    if (!samePhone(company.phone, company.phonecall))
      ctx.addIssue({
        code: "custom",
        path: ["phonecall"],
        message: "The two formats must be the same number",
      });
  });

const storeName = line("the store's name", WEB_INFO_LIMITS.name);
const supportEmail = z
  .string({ error: "Enter the e-mail address" })
  .trim()
  .min(1, "Enter the e-mail address")
  .max(WEB_INFO_LIMITS.email)
  .pipe(z.email("Enter a valid e-mail address, like support@example.com"));

/**
 * The default web info: the store's name, e-mail and its two offices (address: India, address2: USA). Its phone is
 * the company details' (one record for one fact, docs/decisions/0029-one-record-per-fact.md).
 */
export const webInfoFormSchema = z.object({
  name: storeName,
  email: supportEmail,
  address: optionalText(WEB_INFO_LIMITS.address),
  address2: optionalText(WEB_INFO_LIMITS.address),
});

/** Who the store is, as the settings page edits it: the web info's name and e-mail, the company details' phone. */
export const storeIdentitySchema = z.object({ name: storeName, email: supportEmail }).and(companyFormSchema);

export type WebInfoForm = z.infer<typeof webInfoFormSchema>;

export const PAGE_LIMITS = { title: 200, body: 60_000 } as const;
/** A Markdown page's form, read with this limit (a long policy in any script, percent-encoded). */
export const PAGE_FORM_BYTES = 1024 * 1024;

export const pageFormSchema = z.object({
  title: line("a title", PAGE_LIMITS.title),
  body: z
    .string({ error: "Write the page" })
    .trim()
    .min(1, "Write the page")
    .max(PAGE_LIMITS.body, `At most ${PAGE_LIMITS.body.toLocaleString("en-US")} characters`),
});

export type PageForm = z.infer<typeof pageFormSchema>;

/** The editable pages; their routes are fixed (app/routes.ts), so pages are edited, never added. */
export const PAGE_SLUGS = [
  "about",
  "disclaimer",
  "termsandconditions",
  "privacypolicy",
  "returnandrefundpolicy",
  "shipping-policy",
] as const;

/** A row id from a form or URL: a positive whole number, or nothing. */
export const rowId = z.coerce.number().int().min(1).max(2_147_483_647);

export const MESSAGE_KINDS = ["contact", "quote"] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
