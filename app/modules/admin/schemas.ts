import { z } from "zod";

const money = (label: string) =>
  z
    .string({ error: `Enter the ${label}` })
    .trim()
    .regex(/^\d{1,6}(\.\d{1,2})?$/, `Enter the ${label} like 49.99`);

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
      .max(200, "At most 200 characters"),
    description: z
      .string({ error: "Enter a description" })
      .trim()
      .min(1, "Enter a description")
      .max(5000, "At most 5000 characters"),
    price: money("price"),
    originalPrice: money("original price")
      .optional()
      .or(z.literal("").transform(() => undefined)),
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
  })
  .superRefine((product, ctx) => {
    if (product.originalPrice !== undefined && Number(product.originalPrice) < Number(product.price)) {
      ctx.addIssue({
        code: "custom",
        path: ["originalPrice"],
        message: "The original price cannot be below the price",
      });
    }
  });

export type ProductForm = z.infer<typeof productFormSchema>;

export const seoFormSchema = z.object({
  route: z.literal("/").or(path),
  title: z
    .string()
    .trim()
    .max(200, "At most 200 characters")
    .optional()
    .transform((value) => value || null),
  description: z.string().trim().max(500, "At most 500 characters").default(""),
  keywords: z.string().trim().max(500, "At most 500 characters").default(""),
});

const lines = (label: string, max: number) =>
  z
    .string()
    .max(20_000)
    .transform((text) =>
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.string().max(300)).min(1, `Give at least one ${label}`).max(max, `At most ${max} ${label}s`),
    );

/** Brand content as edited in the admin form: lists one per line, benefits and testimonials as pairs. */
export const brandContentFormSchema = z.object({
  title: z.string().trim().min(1, "Enter a title").max(200),
  bannerImg: imageRef,
  backgroundImage: z.string().trim().max(2000).default(""),
  logo: imageRef,
  whyChoose: z.string().trim().min(1, "Say why to choose this brand").max(5000),
  supportPhone: z.string().trim().min(1, "Enter the support phone").max(40),
  supportEmail: z.email("Enter a valid e-mail address"),
  website: z.url("Enter a full address like https://www.example.com"),
  benefits: z
    .array(
      z.object({
        title: z.string().trim().min(1, "Enter a title").max(200),
        desc: z.string().trim().min(1, "Enter a description").max(1000),
        icon: imageRef,
      }),
    )
    .length(3, "A brand has exactly three benefits"),
  features: lines("feature", 30),
  testimonials: z
    .string()
    .max(30_000)
    .transform((text, ctx) => {
      const entries: Array<{ quote: string; author: string }> = [];
      for (const [index, line] of text.split(/\r?\n/).entries()) {
        if (line.trim() === "") continue;
        const at = line.lastIndexOf("|");
        if (at <= 0) {
          ctx.addIssue({ code: "custom", message: `Line ${index + 1} must look like "quote | author"` });
          return z.NEVER;
        }
        entries.push({
          quote: line.slice(0, at).trim().slice(0, 1000),
          author: line
            .slice(at + 1)
            .trim()
            .slice(0, 80),
        });
      }
      return entries;
    }),
});

export const companyFormSchema = z.object({
  phone: z.string().trim().min(1, "Enter the phone in local format").max(40),
  phonecall: z
    .string()
    .trim()
    .regex(/^\+\d{6,15}$/, "Enter the international number like +12125550123"),
});
