import { z } from "zod";
import { isOneLine, ONE_LINE_MESSAGE } from "~/lib/forms";
import { asList, checkbox, usPhone, refuseDuplicates } from "./content-schemas";

const money = (label: string) =>
  z
    .string({ error: `Enter the ${label}` })
    .trim()
    .regex(/^\d+(\.\d{1,2})?$/, `Enter the ${label} like 49.99`)
    .refine((value) => /^0*\d{1,6}(\.|$)/.test(value), `The ${label} can be at most 999999.99`);

/** Empty (not counted) or the units of a printer or router on hand: a product's and a variant's stock. */
const stockCount = z
  .string()
  .trim()
  .regex(/^\d{0,7}$/, "Enter a whole number of units from 0 to 9999999, or leave it empty");

/**
 * The owner's own price in rupees, in place of the dollar price at the store's rate (ADR 0039): a price above 0;
 * empty (null) for the rate's; absent (a CSV file without the column) leaves the stored one as it is.
 */
const rupeePrice = money("price in rupees")
  .refine(
    (value) => Number(value) > 0,
    "The price in rupees must be above 0, or leave it empty for the rate's",
  )
  .optional()
  .or(z.literal("").transform(() => null));

/** A price before the discount is never below the price: a product's and a variant's forms. */
function originalNotBelowPrice(form: { price: string; originalPrice?: string }, ctx: z.RefinementCtx) {
  if (form.originalPrice !== undefined && Number(form.originalPrice) < Number(form.price)) {
    ctx.addIssue({
      code: "custom",
      path: ["originalPrice"],
      message: "The original price cannot be below the price",
    });
  }
}

const path = z
  .string({ error: "Enter the page address" })
  .trim()
  .regex(/^(\/[A-Za-z0-9][A-Za-z0-9._-]*)+$/, "Use a path like /antivirus/brand/product-name");

const imageRef = z
  .string({ error: "Give an image" })
  .trim()
  .min(1, "Give an image")
  .max(2000)
  .refine(
    (value) => value.startsWith("/") || /^https:\/\//.test(value),
    "Use a site path or an https:// address",
  );

/** "Label: value" per line, in display order. */
const specifications = z
  .string()
  .max(10_000)
  .optional()
  .transform((text, ctx) => {
    const rows: Array<{ label: string; value: string }> = [];
    for (const [index, line] of (text ?? "").split(/\r?\n/).entries()) {
      if (line.trim() === "") continue;
      const at = line.indexOf(":");
      if (at <= 0 || line.slice(at + 1).trim() === "") {
        ctx.addIssue({ code: "custom", message: `Line ${index + 1} must look like "Label: value"` });
        return z.NEVER;
      }
      rows.push({
        label: line.slice(0, at).trim().slice(0, 100),
        value: line
          .slice(at + 1)
          .trim()
          .slice(0, 500),
      });
    }
    return rows;
  });

export const productFormSchema = z
  .object({
    groupKey: z.string({ error: "Choose a brand" }).min(1, "Choose a brand").max(60),
    externalId: z
      .string({ error: "Enter an id" })
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "Use letters, digits, dots, dashes or underscores"),
    name: z
      .string({ error: "Enter the name" })
      .trim()
      .min(1, "Enter the name")
      .max(200, "At most 200 characters")
      .refine(isOneLine, ONE_LINE_MESSAGE),
    description: z
      .string({ error: "Enter a description" })
      .trim()
      .min(1, "Enter a description")
      .max(5000, "At most 5000 characters"),
    price: money("price"),
    originalPrice: money("original price")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    inrPrice: rupeePrice,
    categories: z
      .string()
      .max(500)
      .optional()
      .transform((text) => [
        ...new Set(
          (text ?? "")
            .split(",")
            .map((tag) => tag.trim().toLowerCase())
            .filter(Boolean),
        ),
      ])
      .pipe(
        z.array(
          z
            .string()
            .regex(
              /^[a-z0-9]+(-[a-z0-9]+)*$/,
              "Tags are lower-case words joined by hyphens, separated by commas",
            ),
        ),
      ),
    img: imageRef,
    route: path,
    specifications,
    hidden: z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean()),
    /** When out of stock: take waiting orders, or show the product as unavailable. Left out: unchanged. */
    waitingOrders: z
      .enum(["wait", "refuse"], "Choose what happens when it is out of stock")
      .optional()
      .transform((choice) => (choice === undefined ? undefined : choice === "wait")),
    /**
     * Units of a printer or router on hand and not yet ordered; empty: not counted (always in stock). Software
     * counts its key pool instead. Left out (a CSV without the column): unchanged.
     */
    stock: stockCount
      .optional()
      .transform((text) => (text === undefined ? undefined : text === "" ? null : Number(text))),
  })
  .superRefine(originalNotBelowPrice);

export type ProductForm = z.infer<typeof productFormSchema>;

/**
 * A variant of a product, as the product page's Variants section edits it. SKUs stay short and plain (they stand
 * in addresses, carts and CSVs as they are); the database keeps them unique in any case.
 */
export const variantFormSchema = z
  .object({
    sku: z
      .string({ error: "Enter the SKU" })
      .trim()
      .min(1, "Enter the SKU")
      .max(64, "At most 64 characters")
      // As the catalogue file and the database take them (db/migrations/0025), so an imported SKU can be saved here.
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
        "Start with a letter or digit, then letters, digits, dots, underscores or dashes, like BD-TS-1D-1Y",
      ),
    label: z
      .string({ error: "Enter the label" })
      .trim()
      .min(1, "Enter the label, like 1 device, 1 year")
      .max(100, "At most 100 characters")
      .refine(isOneLine, ONE_LINE_MESSAGE),
    price: money("price"),
    originalPrice: money("original price")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    inrPrice: rupeePrice,
    /** Printers and routers only; software counts the variant's key pool. */
    stock: stockCount.optional().transform((text) => (text ? Number(text) : null)),
    /** Months a key lasts from the payment; empty: perpetual. */
    termMonths: z
      .string()
      .trim()
      .optional()
      .refine(
        (text) => !text || (/^\d{1,3}$/.test(text) && Number(text) >= 1 && Number(text) <= 120),
        "Enter a term from 1 to 120 months, or leave it empty for a perpetual licence",
      )
      .transform((text) => (text ? Number(text) : null)),
    hidden: checkbox,
  })
  .superRefine(originalNotBelowPrice);

export type VariantForm = z.infer<typeof variantFormSchema>;

export const seoFormSchema = z.object({
  route: z
    .string({ error: "Enter the page's route" })
    .trim()
    .min(1, "Enter the page's route, like /antivirus")
    .max(300, "At most 300 characters")
    .regex(/^\/$|^(\/[A-Za-z0-9][A-Za-z0-9._-]*)+$/, "Use a path like /antivirus or /antivirus/norton"),
  title: z
    .string()
    .trim()
    .max(200, "At most 200 characters")
    .optional()
    .transform((value) => value || null),
  description: z.string().trim().max(500, "At most 500 characters").default(""),
  keywords: z.string().trim().max(500, "At most 500 characters").default(""),
});

export const BRAND_LIMITS = {
  title: 200,
  whyChoose: 5000,
  benefitTitle: 200,
  benefitDesc: 1000,
  feature: 300,
  features: 30,
  quote: 1000,
  author: 80,
  testimonials: 30,
} as const;

/** Text lines (the one-per-line form of a list) without blank ones; any other value is left as it is. */
const splitLines = (value: unknown) =>
  typeof value === "string"
    ? value
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
    : asList(value);

/** One feature of a brand content entry (a row of its form's list). */
export const brandFeature = z
  .string({ error: "Enter the feature" })
  .trim()
  .min(1, "Enter the feature or remove it")
  .max(BRAND_LIMITS.feature, `At most ${BRAND_LIMITS.feature} characters`);

/** One testimonial of a brand content entry. */
export const brandTestimonial = z.object({
  quote: z
    .string({ error: "Enter the quote" })
    .trim()
    .min(1, "Enter the quote or remove the testimonial")
    .max(BRAND_LIMITS.quote, `At most ${BRAND_LIMITS.quote} characters`),
  author: z
    .string({ error: "Enter the author" })
    .trim()
    .min(1, "Enter who said it, like Sam P.")
    .max(BRAND_LIMITS.author, `At most ${BRAND_LIMITS.author} characters`),
});

/** "quote | author" lines become testimonials; a line without an author keeps an empty one, which is refused. */
const testimonialLines = (value: unknown) =>
  typeof value === "string"
    ? value
        .split(/\r?\n/)
        .filter((line) => line.trim() !== "")
        .map((line) => {
          const at = line.lastIndexOf("|");
          return at <= 0
            ? { quote: line, author: "" }
            : { quote: line.slice(0, at), author: line.slice(at + 1) };
        })
    : asList(value);

/** One of the three benefits of a brand content entry. */
export const brandBenefit = z.object({
  title: z
    .string({ error: "Enter a title" })
    .trim()
    .min(1, "Enter a title")
    .max(BRAND_LIMITS.benefitTitle, `At most ${BRAND_LIMITS.benefitTitle} characters`)
    .refine(isOneLine, ONE_LINE_MESSAGE),
  desc: z
    .string({ error: "Enter a description" })
    .trim()
    .min(1, "Enter a description")
    .max(BRAND_LIMITS.benefitDesc, `At most ${BRAND_LIMITS.benefitDesc} characters`),
  icon: imageRef,
});

/**
 * Brand content as edited in the admin form: every field of the spec's entry. Lists come as indexed fields
 * (features.0, testimonials.0.quote) or, for features and testimonials, as lines ("quote | author").
 */
export const brandContentFormSchema = z.object({
  title: z
    .string({ error: "Enter a title" })
    .trim()
    .min(1, "Enter a title")
    .max(BRAND_LIMITS.title, `At most ${BRAND_LIMITS.title} characters`)
    .refine(isOneLine, ONE_LINE_MESSAGE),
  bannerImg: imageRef,
  backgroundImage: z
    .string()
    .trim()
    .max(2000)
    .default("")
    .refine(
      (value) => value === "" || imageRef.safeParse(value).success,
      "Use a site path or an https:// address",
    ),
  logo: imageRef,
  whyChoose: z
    .string({ error: "Say why to choose this brand" })
    .trim()
    .min(1, "Say why to choose this brand")
    .max(BRAND_LIMITS.whyChoose, `At most ${BRAND_LIMITS.whyChoose} characters`),
  supportPhone: usPhone,
  supportEmail: z
    .string({ error: "Enter the support e-mail" })
    .trim()
    .max(254)
    .pipe(z.email("Enter a valid e-mail address")),
  website: z
    .string({ error: "Enter the support website" })
    .trim()
    .max(2000)
    .pipe(z.url({ protocol: /^https?$/, error: "Enter a full address like https://www.example.com" })),
  benefits: z.preprocess(
    asList,
    z
      .array(brandBenefit, { error: "Give the three benefits" })
      .length(3, "A brand has exactly three benefits")
      .superRefine((benefits, ctx) =>
        refuseDuplicates(benefits, (benefit) => benefit.title, ctx, "Two benefits have this title", "title"),
      ),
  ),
  features: z.preprocess(
    splitLines,
    z
      .array(brandFeature, { error: "Give the features" })
      .min(1, "Give at least one feature")
      .max(BRAND_LIMITS.features, `At most ${BRAND_LIMITS.features} features`)
      .superRefine((features, ctx) =>
        refuseDuplicates(features, (item) => item, ctx, "This feature is listed twice"),
      ),
  ),
  testimonials: z.preprocess(
    testimonialLines,
    z
      .array(brandTestimonial, { error: "Give the testimonials" })
      .max(BRAND_LIMITS.testimonials, `At most ${BRAND_LIMITS.testimonials} testimonials`)
      .superRefine((testimonials, ctx) =>
        refuseDuplicates(
          testimonials,
          (item) => `${item.author}|${item.quote}`,
          ctx,
          "This testimonial is listed twice",
          "quote",
        ),
      ),
  ),
  /** The testimonials are sample content (the demo's), and say so on the page. */
  sample: checkbox,
});

export { companyFormSchema } from "./content-schemas";
