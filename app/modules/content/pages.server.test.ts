import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "~/lib/logger.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { getContactDetails } from "./company.server";
import { getPage, updatedOn } from "./pages.server";
import { getService, listServices } from "./services.server";

const PAGES = {
  about: "About Us",
  disclaimer: "Disclaimer",
  termsandconditions: "Terms and Conditions",
  privacypolicy: "Privacy Policy",
  returnandrefundpolicy: "Return and Refund Policy",
  "shipping-policy": "Shipping Policy",
};

describe("a page's last update as it shows it", () => {
  it("is the UTC day, in words, whatever the server's time zone", () => {
    expect(updatedOn(new Date("2027-03-12T23:30:00Z"))).toBe("March 12, 2027");
    expect(updatedOn(new Date("2027-03-13T00:30:00+02:00"))).toBe("March 12, 2027");
  });
});

describe.each(drivers)("content pages, services and contact details (%s)", (driver) => {
  let database: TestDatabase;

  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database?.close();
  });

  it("reads each information and policy page with its Markdown body and last update", async () => {
    for (const [slug, title] of Object.entries(PAGES)) {
      const page = await getPage(database, slug);
      expect(page, slug).toMatchObject({ slug, title });
      expect(page?.body.length, slug).toBeGreaterThan(500);
      expect(page?.body, slug).toContain("## ");
      expect(page?.updatedAt, slug).toBeInstanceOf(Date);
    }
  });

  it("finds a page whatever the case of its slug, and nothing for an unknown one", async () => {
    expect((await getPage(database, "About"))?.slug).toBe("about");
    expect((await getPage(database, "SHIPPING-POLICY"))?.slug).toBe("shipping-policy");
    expect(await getPage(database, "nope")).toBeNull();
  });

  it("lists the four digital services in order with their cheapest package", async () => {
    const services = await listServices(database);
    expect(services.map((service) => service.slug)).toEqual([
      "digital-marketing",
      "web-development",
      "content-writing",
      "app-development",
    ]);
    expect(services[1]).toMatchObject({ title: "Web Development", fromPriceCents: 49_900, packageCount: 3 });
  });

  it("reads a service with its packages in cents, case-insensitively, and nothing for an unknown one", async () => {
    const service = await getService(database, "Web-Development");
    expect(service?.slug).toBe("web-development");
    expect(service?.packages.map((pkg) => [pkg.name, pkg.priceCents])).toEqual([
      ["Starter", 49_900],
      ["Growth", 119_900],
      ["Premium", 249_900],
    ]);
    expect(service?.packages[0]?.features).toContain("Contact form");
    expect(await getService(database, "nope")).toBeNull();
  });

  it("gives the contact details: phone in both formats, e-mail and both offices", async () => {
    const details = await getContactDetails({ db: database.db, logger: createLogger("silent") });
    expect(details).toEqual({
      storeName: "KeyHaven Tech Store",
      phone: { phone: "(212) 555-0100", phonecall: "+12125550100" },
      email: "support@example.com",
      offices: [
        { label: "USA office", address: expect.stringContaining("New York, NY 10001, USA") },
        { label: "India office", address: expect.stringContaining("Noida, Uttar Pradesh 201301, India") },
      ],
    });
  });
});
