import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, brandContent, companyDetails, seoRecords, webInfo } from "~db/schema";
import { formToObject } from "~/lib/forms";
import { brandWithContent } from "~/modules/catalogue/catalogue.server";
import { getCompanyPhone, getContactDetails } from "~/modules/content/company.server";
import { DEFAULT_TITLE, seoForPath } from "~/modules/seo/seo.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { testEnv } from "../../../tests/support/orders";
import {
  deleteSeoRecord,
  getBrandContent,
  getCompanySettings,
  getSeoRecord,
  listBrandContent,
  listSeoPage,
  saveBrandContent,
  saveCompanyDetails,
  saveSeoRecord,
  saveWebInfo,
  seoListQuery,
} from "./content.server";
import { isUniqueViolation } from "./content-db.server";
import { webInfoFormSchema } from "./content-schemas";
import { brandContentFormSchema, companyFormSchema, seoFormSchema } from "./schemas";

const ADMIN = "owner@example.com";

/** The brand content form as the browser posts it: indexed field names, as the editor renders them. */
function brandForm(overrides: Record<string, string> = {}) {
  const fields: Record<string, string> = {
    title: "Microsoft Windows Support",
    bannerImg: "/placeholder/banner/windows.svg",
    backgroundImage: "",
    logo: "/placeholder/logo/windows.svg",
    whyChoose: "One text for Windows 7, 8 and XP.",
    supportPhone: "+1 (212) 555-0105",
    supportEmail: "windows-support@example.com",
    website: "https://www.example.com/support/windows",
    sample: "on",
  };
  for (const n of [0, 1, 2]) {
    fields[`benefits.${n}.title`] = `Benefit ${n + 1}`;
    fields[`benefits.${n}.desc`] = `Why benefit ${n + 1} helps.`;
    fields[`benefits.${n}.icon`] = "/placeholder/icon/activation.svg";
  }
  for (let n = 0; n < 12; n++) fields[`features.${n}`] = `Feature ${n + 1}`;
  for (let n = 0; n < 8; n++) {
    fields[`testimonials.${n}.quote`] = `Quote number ${n + 1}.`;
    fields[`testimonials.${n}.author`] = `Author ${n + 1}.`;
  }
  return formToObject({ ...fields, ...overrides });
}

describe.each(drivers)("the admin's SEO, brand content and company tools on %s", (driver) => {
  let database: TestDatabase;
  const env = testEnv();
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database.close();
  });

  const actions = async (entity: string, id: string | number) =>
    (
      await database.db
        .select({ action: auditLog.action, actor: auditLog.actor })
        .from(auditLog)
        .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, String(id))))
        .orderBy(auditLog.id)
    ).map((entry) => `${entry.action} by ${entry.actor}`);

  it("creates, edits and deletes the SEO record of a route; the page's title follows each change", async () => {
    const path = "/best-sellers";
    await database.db.delete(seoRecords).where(eq(seoRecords.route, path));
    expect((await seoForPath({ db: database.db, env }, path)).title).toBe(DEFAULT_TITLE);
    const form = seoFormSchema.parse({
      route: path,
      title: "Best Sellers",
      description: "Our best sellers.",
      keywords: "best, sellers",
    });
    expect(await saveSeoRecord(database.db, form, ADMIN)).toEqual({ ok: true });
    const listed = await listSeoPage(database.db, seoListQuery.parse({ q: "best-sel" }));
    expect(listed.rows.map((row) => row.route)).toEqual([path]);
    const id = listed.rows[0]!.id;
    expect(await seoForPath({ db: database.db, env }, "/Best-Sellers/")).toMatchObject({
      title: "Best Sellers",
      description: "Our best sellers.",
      keywords: "best, sellers",
    });
    expect(await saveSeoRecord(database.db, { ...form, title: "Top Picks" }, ADMIN, id)).toEqual({
      ok: true,
    });
    expect((await seoForPath({ db: database.db, env }, path)).title).toBe("Top Picks");
    // A record for another route with the same path, in other letters, is refused.
    expect(await saveSeoRecord(database.db, { ...form, route: "/BEST-SELLERS" }, ADMIN)).toMatchObject({
      ok: false,
      reason: "invalid",
      errors: { route: expect.any(String) },
    });
    expect(await saveSeoRecord(database.db, form, ADMIN, 987_654)).toMatchObject({
      ok: false,
      reason: "not-found",
    });
    expect(await deleteSeoRecord(database.db, id, ADMIN)).toBe(true);
    expect(await deleteSeoRecord(database.db, id, ADMIN)).toBe(false);
    expect(await getSeoRecord(database.db, id)).toBeNull();
    expect((await seoForPath({ db: database.db, env }, path)).title).toBe(DEFAULT_TITLE);
    expect(await actions("seo_record", id)).toEqual([
      `seo.create by ${ADMIN}`,
      `seo.update by ${ADMIN}`,
      `seo.delete by ${ADMIN}`,
    ]);
  });

  it("keeps one SEO record per route whatever the letters' case, down to the database", async () => {
    const error = await database.db
      .insert(seoRecords)
      .values({ route: "/ABOUT" })
      .then(
        () => null,
        (caught: unknown) => caught,
      );
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error("other"))).toBe(false);
  });

  it("pages and sorts SEO records and refuses bad ones", async () => {
    const all = await listSeoPage(
      database.db,
      seoListQuery.parse({ pageSize: "5", sort: "route", dir: "asc" }),
    );
    expect(all.rows).toHaveLength(5);
    expect(all.rows[0]!.route).toBe("/");
    const desc = await listSeoPage(
      database.db,
      seoListQuery.parse({ pageSize: "5", sort: "route", dir: "desc" }),
    );
    expect(desc.rows[0]!.route > desc.rows[4]!.route).toBe(true);
    const bad = seoFormSchema.safeParse({
      route: "about",
      title: "x".repeat(201),
      description: "d".repeat(501),
    });
    expect(bad.error!.issues.map((issue) => issue.path.join("."))).toEqual(
      expect.arrayContaining(["route", "title", "description"]),
    );
    expect(seoFormSchema.safeParse({ route: "/a b" }).success).toBe(false);
    expect(seoFormSchema.parse({ route: "/", title: "  " }).title).toBeNull();
  });

  it("lists brand content with the brand pages using each entry; the Windows editions share one", async () => {
    const entries = await listBrandContent(database.db);
    expect(entries).toHaveLength(21);
    const windows = entries.find((entry) => entry.key === "Windows")!;
    expect(windows.usedBy).toEqual([
      { key: "Windows7", name: "Windows 7", path: "/windows/windows7" },
      { key: "Windows8", name: "Windows 8", path: "/windows/windows8" },
      { key: "Windowsxp", name: "Windows XP", path: "/windows/windowsxp" },
    ]);
    expect(entries.find((entry) => entry.key === "PCMatic")!.usedBy).toEqual([
      { key: "PCMatic", name: "PC Matic", path: "/antivirus/pcmatic" },
    ]);
    expect((await getBrandContent(database.db, "windows"))!.entry.key).toBe("Windows");
    expect(await getBrandContent(database.db, "no-such-brand")).toBeNull();
  });

  it("saves every field of the shared Windows entry from the posted form; all three editions show it", async () => {
    const parsed = brandContentFormSchema.parse(
      brandForm({
        "contact.ignored": "x",
        whyChoose: "Edited once, shown on every Windows page.",
        "benefits.1.icon": "https://cdn.example.com/icon.png",
        backgroundImage: "/placeholder/banner/windows-bg.svg",
        sample: "",
      }),
    );
    expect(parsed.features).toHaveLength(12);
    expect(await saveBrandContent(database.db, "Windows", parsed, ADMIN)).toBe(true);
    for (const slug of ["windows7", "windows8", "windowsxp"]) {
      const found = await brandWithContent({ db: database.db }, slug, "windows");
      expect(found!.content).toMatchObject({
        whyChoose: "Edited once, shown on every Windows page.",
        contact: {
          supportPhone: "+1 (212) 555-0105",
          supportEmail: "windows-support@example.com",
          website: "https://www.example.com/support/windows",
        },
        features: parsed.features,
        testimonials: parsed.testimonials,
        sample: false,
      });
      expect(found!.content.benefits[1]).toEqual({
        title: "Benefit 2",
        desc: "Why benefit 2 helps.",
        icon: "https://cdn.example.com/icon.png",
      });
    }
    const [row] = await database.db.select().from(brandContent).where(eq(brandContent.key, "Windows"));
    expect(row!.backgroundImage).toBe("/placeholder/banner/windows-bg.svg");
    expect(await saveBrandContent(database.db, "Nope", parsed, ADMIN)).toBe(false);
    expect(await actions("brand_content", "Windows")).toEqual([`brand_content.update by ${ADMIN}`]);
  });

  it("refuses brand content that breaks the rules, naming the field", () => {
    const errorsOf = (input: Record<string, unknown>) => {
      const result = brandContentFormSchema.safeParse(input);
      expect(result.success).toBe(false);
      return result.error!.issues.map((issue) => issue.path.join("."));
    };
    const twoBenefits = brandForm();
    delete (twoBenefits.benefits as Record<string, unknown>)["2"];
    expect(errorsOf(twoBenefits)).toEqual(["benefits"]);
    expect(errorsOf(brandForm({ "features.3": " " }))).toEqual(["features.3"]);
    expect(errorsOf(brandForm({ "features.5": "Feature 1" }))).toEqual(["features.5"]);
    expect(errorsOf(brandForm({ "testimonials.2.author": "" }))).toEqual(["testimonials.2.author"]);
    expect(errorsOf(brandForm({ "benefits.2.title": "Benefit 1" }))).toEqual(["benefits.2.title"]);
    expect(errorsOf(brandForm({ "benefits.0.icon": "javascript:alert(1)" }))).toEqual(["benefits.0.icon"]);
    expect(errorsOf(brandForm({ website: "javascript:alert(1)", supportEmail: "nope" }))).toEqual([
      "supportEmail",
      "website",
    ]);
    expect(errorsOf({ ...brandForm(), features: {} })).toEqual(["features"]);
    const tooMany = brandForm();
    (tooMany.features as Record<string, string>)["30"] = "One too many";
    for (let n = 12; n < 30; n++) (tooMany.features as Record<string, string>)[String(n)] = `More ${n}`;
    expect(errorsOf(tooMany)).toEqual(["features"]);
  });

  it("saves the company phone and the web info; the header and contact block use them at once", async () => {
    const { logger } = recordingLogger();
    expect(await getCompanySettings(database.db)).toMatchObject({
      company: { phone: "(212) 555-0100", phonecall: "+12125550100" },
      webInfo: { name: "KeyHaven Tech Store" },
    });
    await saveCompanyDetails(
      database.db,
      companyFormSchema.parse({ phone: "(646) 555-0199", phonecall: "+16465550199" }),
      ADMIN,
    );
    expect(await getCompanyPhone({ db: database.db, logger })).toEqual({
      phone: "(646) 555-0199",
      phonecall: "+16465550199",
    });
    await saveWebInfo(
      database.db,
      webInfoFormSchema.parse({
        name: "KeyHaven Tech",
        email: "hello@example.com",
        phone: "(646) 555-0199",
        phonecall: "+16465550199",
        address: "Plot 1, Noida, India",
        address2: "",
      }),
      ADMIN,
    );
    expect(await getContactDetails({ db: database.db, logger })).toEqual({
      storeName: "KeyHaven Tech",
      phone: { phone: "(646) 555-0199", phonecall: "+16465550199" },
      email: "hello@example.com",
      offices: [{ label: "India office", address: "Plot 1, Noida, India" }],
    });
    expect(await actions("company_details", 1)).toEqual([`company.update by ${ADMIN}`]);
    expect(await actions("web_info", 1)).toEqual([`web_info.update by ${ADMIN}`]);
  });

  it("creates the company and web info records when they are missing", async () => {
    await database.db.delete(companyDetails);
    await database.db.delete(webInfo);
    expect(await getCompanySettings(database.db)).toEqual({ company: null, webInfo: null });
    await saveCompanyDetails(database.db, { phone: "(212) 555-0100", phonecall: "+12125550100" }, ADMIN);
    await saveWebInfo(
      database.db,
      webInfoFormSchema.parse({
        name: "Store",
        email: "a@example.com",
        phone: "0120 555 0100",
        phonecall: "+911205550100",
      }),
      ADMIN,
    );
    expect(await getCompanySettings(database.db)).toMatchObject({
      company: { phone: "(212) 555-0100" },
      webInfo: { name: "Store", address: "", address2: "" },
    });
  });

  it("refuses phone formats that are not phones, or not the same number", () => {
    const company = companyFormSchema.safeParse({ phone: "call us!", phonecall: "12125550100" });
    expect(company.error!.issues.map((issue) => issue.path.join("."))).toEqual(["phone", "phonecall"]);
    const mismatch = companyFormSchema.safeParse({ phone: "(212) 555-0100", phonecall: "+12125550199" });
    expect(mismatch.error!.issues).toEqual([
      expect.objectContaining({ path: ["phonecall"], message: "The two formats must be the same number" }),
    ]);
    const info = webInfoFormSchema.safeParse({
      name: "",
      email: "not-an-email",
      phone: "(212) 555-0100",
      phonecall: "+12125550100",
      address: "x".repeat(501),
    });
    expect(info.error!.issues.map((issue) => issue.path.join("."))).toEqual(["name", "email", "address"]);
  });

  it("keeps names and titles on one line: a line break in the store's name would reach e-mail subjects", () => {
    const info = webInfoFormSchema.safeParse({
      name: "KeyHaven\r\nBcc: someone@example.com",
      email: "support@example.com",
      phone: "(212) 555-0100",
      phonecall: "+12125550100",
    });
    expect(info.error!.issues).toEqual([
      expect.objectContaining({ path: ["name"], message: "Keep it on one line: no line breaks or tabs" }),
    ]);
    const brand = brandContentFormSchema.safeParse(brandForm({ title: "Norton\nsecurity" }));
    expect(brand.error!.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["title", "Keep it on one line: no line breaks or tabs"],
    ]);
    // Multi-line fields keep their lines.
    const office = webInfoFormSchema.safeParse({
      name: "KeyHaven",
      email: "support@example.com",
      phone: "(212) 555-0100",
      phonecall: "+12125550100",
      address: "Suite 1200\n100 Example Avenue",
    });
    expect(office.success).toBe(true);
  });
});
