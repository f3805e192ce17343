import { z } from "zod";

/**
 * The catalogue file format. Prices are the spec's decimal strings ("49.99") at this edge only;
 * the importer turns them into integer cents.
 */

export const SECTIONS = ["antivirus", "windows", "printer", "router"] as const;

const text = (max: number) =>
  z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

const priceString = z
  .string()
  .regex(/^\d{1,6}\.\d{2}$/, "must be a decimal string with two places, like 49.99");

/** A site path ("/antivirus/mcafee/total-protection") or an absolute http(s) URL. */
const imageRef = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(2000)
  .refine(
    (value) => value.startsWith("/") || /^https?:\/\//.test(value),
    "must be a site path or an http(s) URL",
  );

const routePath = z
  .string()
  .trim()
  .regex(/^(\/[A-Za-z0-9][A-Za-z0-9._-]*)+$/, "must be a path like /antivirus/brand/product-name");

const slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be lower-case words joined by hyphens");

export const productSchema = z
  .object({
    id: text(100),
    name: text(200),
    desc: text(5000),
    price: priceString,
    originalPrice: priceString,
    discountedPrice: priceString,
    /** Tags such as best-seller; empty strings occur in real data and are ignored. */
    category: z.array(z.string().trim().max(60)).optional(),
    img: imageRef,
    route: routePath,
    /** Label to text, in display order. */
    specifications: z.record(text(100), text(500)),
    /**
     * Printers and routers: units on hand. Sets the count of a new product, or of one not counted yet; a product
     * already counted keeps its live count (orders have taken from it). Left out: not counted.
     */
    stock: z
      .number("must be a whole number of units")
      .int("must be a whole number of units")
      .min(0, "cannot be negative")
      .max(9_999_999, "must be at most 9999999")
      .optional(),
    /** Whether it may be ordered while out of stock (the order waits). Left out: yes for a new product, else unchanged. */
    backorders: z.boolean("must be true or false").optional(),
    /**
     * The ways it is sold ("1 device, 1 year"), in display order; a product with variants is sold only as one of
     * them. Each is matched by its SKU when the file is imported again.
     */
    variants: z
      .array(
        z.object({
          sku: z
            .string()
            .regex(
              /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
              "must be letters, digits, '.', '_' or '-' (at most 64)",
            ),
          label: text(100),
          price: priceString,
          originalPrice: priceString,
          /** Months a key lasts from the payment; left out: perpetual. */
          termMonths: z.number().int("must be a whole number of months").min(1).max(120).optional(),
        }),
      )
      .max(50)
      .optional(),
  })
  .superRefine((product, ctx) => {
    if (product.discountedPrice !== product.price) {
      ctx.addIssue({ code: "custom", path: ["discountedPrice"], message: "must equal price" });
    }
    for (const [index, tag] of (product.category ?? []).entries()) {
      if (tag !== "" && !slug.safeParse(tag).success) {
        ctx.addIssue({
          code: "custom",
          path: ["category", index],
          message: "must be lower-case words joined by hyphens",
        });
      }
    }
  });

export const brandContentSchema = z.object({
  title: text(200),
  bannerImg: imageRef,
  backgroundImage: z.string().max(2000),
  logo: imageRef,
  whyChoose: text(5000),
  contact: z.object({
    supportPhone: text(40),
    supportEmail: z.email("must be an e-mail address"),
    website: z.url("must be a URL"),
  }),
  benefits: z
    .array(z.object({ title: text(200), desc: text(1000), icon: imageRef }))
    .length(3, "must have exactly 3 entries"),
  features: z.array(text(300)).min(1, "must have at least one feature").max(30),
  testimonials: z.array(z.object({ quote: text(1000), author: text(80) })).max(30),
  /** Marks demo testimonials and copy as sample content. */
  sample: z.boolean().optional(),
});

export const brandGroupSchema = z
  .object({
    /** The spec's brand key, e.g. "McAfee", "PCMatic", "Windows7", "hp". */
    key: z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, "must be letters and digits, starting with a letter"),
    /** The display name, e.g. "PC Matic", "Windows 7", "HP". */
    name: text(100),
    section: z.enum(SECTIONS),
    /** The brand's official website, linked from the independent-reseller notice. */
    officialWebsite: z.url("must be a URL"),
    /** The company behind the brand, when it is not the brand's own name (Microsoft for Windows 7). */
    owner: z.string().trim().max(100).optional(),
    /** Key into brandContent; Windows7, Windows8 and Windowsxp share one entry. */
    content: z.string().min(1),
    products: z.array(productSchema).min(1, "must have at least one product").max(100),
  })
  .superRefine((group, ctx) => {
    if (group.section === "printer" || group.section === "router") return;
    for (const [index, product] of group.products.entries()) {
      if (product.stock !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["products", index, "stock"],
          message: "only printers and routers have a stock count: software counts its licence keys",
        });
    }
  });

const seoSchema = z.object({
  route: routePath.or(z.literal("/")),
  title: z.string().trim().max(200).optional(),
  description: z.string().trim().max(500),
  keywords: z.string().trim().max(500),
});

const metadataSchema = z.object({ title: text(200), description: text(500), keywords: text(500) });

export const seedFileSchema = z
  .object({
    groups: z.array(brandGroupSchema).optional(),
    brandContent: z.record(z.string().min(1), brandContentSchema).optional(),
    company: z
      .object({
        phone: text(40),
        phonecall: z.string().regex(/^\+\d{6,15}$/, "must be an international number like +12125550123"),
      })
      .optional(),
    webInfo: z
      .object({
        name: text(200),
        /** The store's phone is the company's (`company`); accepted here for files that give it with the name. */
        phone: text(40).optional(),
        phonecall: z
          .string()
          .regex(/^\+\d{6,15}$/, "must be an international number like +12125550123")
          .optional(),
        /** The office in India. */
        address: text(500),
        /** The office in the USA. */
        address2: text(500),
        email: z.email("must be an e-mail address"),
      })
      .optional(),
    /** Keyed by lower-case brand key; only some brands have it, the rest use the default. */
    productMetadata: z
      .record(z.string().regex(/^[a-z0-9]+$/, "must be a lower-case brand key"), metadataSchema)
      .optional(),
    seo: z.array(seoSchema).optional(),
    banners: z
      .array(
        z.object({
          title: text(200),
          subtitle: z.string().trim().max(500).default(""),
          image: imageRef,
          alt: text(300),
          link: routePath.or(z.literal("/")),
        }),
      )
      .optional(),
    blogPosts: z
      .array(
        z.object({
          slug,
          title: text(300),
          excerpt: text(1000),
          image: imageRef,
          publishedAt: z.iso.date("must be a date like 2026-01-31"),
        }),
      )
      .optional(),
    /** Digital services (/digital/{slug}) with their packages. */
    services: z
      .array(
        z.object({
          slug,
          title: text(200),
          summary: text(1000),
          body: text(20_000),
          packages: z
            .array(
              z.object({
                name: text(100),
                price: priceString,
                description: text(500),
                features: z.array(text(300)).min(1),
              }),
            )
            .min(1)
            .max(6),
        }),
      )
      .optional(),
    /** Store settings: shipping for physical goods, and whether the sandbox payment method is offered. */
    settings: z
      .object({
        shippingFlatRate: priceString,
        freeShippingThreshold: priceString,
        sandboxPayments: z.boolean(),
        /** Whether catalogue prices include tax. */
        pricesIncludeTax: z.boolean(),
        /** Where the store is registered for tax (printed on invoices): country, kind of number, number, states. */
        taxRegistrations: z
          .array(
            z.object({
              country: z.string().regex(/^[A-Z]{2}$/),
              label: text(20),
              number: text(40),
              regions: z.array(z.string().regex(/^[A-Z0-9]{1,3}$/)).max(100),
            }),
          )
          .max(20),
      })
      .partial()
      .optional(),
    /**
     * The tax rules: a rate in basis points (400 = 4%) by country and state ('' for the whole country). When given,
     * the file's list is the list.
     */
    taxRules: z
      .array(
        z.object({
          country: z.string().regex(/^[A-Z]{2}$/),
          region: z.union([z.literal(""), z.string().regex(/^[A-Z0-9]{1,3}$/)]).default(""),
          productKind: z.enum(["all", "software", "hardware", "service"]).default("all"),
          name: text(60),
          rateBasisPoints: z.number().int().min(0).max(10_000),
          appliesToShipping: z.boolean().default(false),
        }),
      )
      .max(500)
      .optional(),
    /** Discount codes: added when no code of the same text exists (never reset: their uses are kept). */
    promotions: z
      .array(
        z.object({
          code: z.string().regex(/^[A-Za-z0-9_-]{3,40}$/),
          description: z.string().max(500).default(""),
          kind: z.enum(["percent", "fixed"]),
          percentBasisPoints: z.number().int().min(1).max(10_000).optional(),
          amount: priceString.optional(),
          minSubtotal: priceString.optional(),
          usageLimit: z.number().int().min(1).optional(),
          perCustomerLimit: z.number().int().min(1).optional(),
        }),
      )
      .max(100)
      .optional(),
    /** Licence keys for software products, by brand key and product id; imported encrypted, never twice. */
    licenceKeys: z
      .array(
        z.object({
          group: z.string().min(1),
          id: z.string().min(1),
          /** The SKU of the product's variant whose pool it is; left out: the product's own pool. */
          variant: z.string().min(1).optional(),
          keys: z.array(z.string().trim().min(5, "must be a licence key").max(200)).min(1),
        }),
      )
      .optional(),
    /**
     * Sample reviews of the demo store, by brand key and product id: shown approved and marked as sample content on
     * the page (like the testimonials), and left out of structured data. Each must say `"sample": true`.
     */
    sampleReviews: z
      .array(
        z.object({
          group: z.string().min(1),
          id: z.string().min(1),
          rating: z.number().int().min(1).max(5),
          body: text(2000).refine((body) => body.length >= 10, "must be at least 10 characters"),
          author: text(40),
          sample: z.literal(true, "must be true: a seeded review is sample content"),
        }),
      )
      .max(1000)
      .optional(),
    /** Editable content pages (policies, about, disclaimer); body is Markdown. */
    pages: z.array(z.object({ slug, title: text(200), body: text(100_000) })).optional(),
  })
  .strict()
  .superRefine((file, ctx) => {
    // One phone for the store: a web info phone is the company's, so the two must not disagree.
    const infoPhone = file.webInfo?.phone ?? file.webInfo?.phonecall;
    if (infoPhone !== undefined && (!file.webInfo?.phone || !file.webInfo.phonecall))
      ctx.addIssue({
        code: "custom",
        path: ["webInfo", file.webInfo?.phone ? "phonecall" : "phone"],
        message: "give the phone in both formats, or in company only",
      });
    if (
      file.company &&
      file.webInfo?.phone &&
      (file.company.phone !== file.webInfo.phone || file.company.phonecall !== file.webInfo.phonecall)
    )
      ctx.addIssue({
        code: "custom",
        path: ["webInfo", "phone"],
        message: "the store has one phone: give it in company only, or the same in both",
      });
    const contentKeys = new Set(Object.keys(file.brandContent ?? {}));
    const groupKeys = new Set<string>();
    const routes = new Map<string, string>();
    for (const [g, group] of (file.groups ?? []).entries()) {
      if (groupKeys.has(group.key.toLowerCase())) {
        ctx.addIssue({
          code: "custom",
          path: ["groups", g, "key"],
          message: `duplicate brand key ${group.key}`,
        });
      }
      groupKeys.add(group.key.toLowerCase());
      if (file.brandContent && !contentKeys.has(group.content)) {
        ctx.addIssue({
          code: "custom",
          path: ["groups", g, "content"],
          message: `no brandContent entry named ${group.content}`,
        });
      }
      const ids = new Set<string>();
      for (const [p, product] of group.products.entries()) {
        if (ids.has(product.id)) {
          ctx.addIssue({
            code: "custom",
            path: ["groups", g, "products", p, "id"],
            message: `duplicate id ${product.id} in ${group.key}`,
          });
        }
        ids.add(product.id);
        const route = product.route.toLowerCase();
        const other = routes.get(route);
        if (other) {
          ctx.addIssue({
            code: "custom",
            path: ["groups", g, "products", p, "route"],
            message: `route already used by ${other}`,
          });
        }
        routes.set(route, `${group.key}/${product.id}`);
      }
    }
  });

export type SeedFile = z.infer<typeof seedFileSchema>;
