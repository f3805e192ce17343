import { expect, type Page } from "@playwright/test";
import { hydrated } from "./hydrated";
import { animationsDone, axeOf } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const PAGES = [
  { path: "/about", title: "About Us", text: "independent online store for the software and hardware" },
  { path: "/disclaimer", title: "Disclaimer", text: "Independent reseller" },
  { path: "/termsandconditions", title: "Terms and Conditions", text: "Delivery of licence keys" },
  { path: "/privacypolicy", title: "Privacy Policy", text: "collects, uses and protects your personal data" },
  { path: "/returnandrefundpolicy", title: "Return and Refund Policy", text: "Software licence keys" },
  { path: "/shipping-policy", title: "Shipping Policy", text: "Tracking" },
];

const PHONE = { width: 390, height: 844 };

async function expectNoAxeViolations(page: Page) {
  await animationsDone(page);
  const results = await axeOf(page).withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]).analyze();
  const found = results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(" ")}: ${node.failureSummary ?? ""}`),
  );
  expect(found).toEqual([]);
}

test.describe("information and policy pages", () => {
  for (const { path, title, text } of PAGES) {
    test(`${path} shows its title, Markdown body and last update`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(`${title} | KeyHaven Tech Store`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      const body = page.getByTestId("page-body");
      await expect(body).toContainText(text);
      // Markdown became real headings and lists, not text with ## and - in it.
      await expect(body.getByRole("heading", { level: 2 }).first()).toBeVisible();
      expect(await body.textContent()).not.toMatch(/##|\*\*/);
      await expect(page.getByTestId("last-updated")).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    });
  }

  test("Markdown lists become real lists", async ({ page }) => {
    await page.goto("/returnandrefundpolicy");
    const body = page.getByTestId("page-body");
    await expect(body.locator("ul > li").first()).toContainText("You can request a refund within 14 days");
    await expect(body.locator("ol > li").first()).toContainText("E-mail support@example.com");
    await expect(body.locator("strong").first()).toBeVisible();
    await screenshot(page, "returnandrefundpolicy-desktop");
    await expectNoAxeViolations(page);
  });

  test("the slug is case-insensitive and the canonical URL is the lower-case path", async ({ page }) => {
    expect((await page.goto("/Shipping-Policy"))?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shipping Policy");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/shipping-policy$/);
  });

  test("links inside the Markdown work and navigate in the app", async ({ page }) => {
    await page.goto("/termsandconditions");
    await hydrated(page);
    await page.getByTestId("page-body").getByRole("link", { name: "Privacy Policy" }).first().click();
    await expect(page).toHaveURL(/\/privacypolicy$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
  });

  test("/about shows both offices and the contact details", async ({ page }) => {
    await page.goto("/about");
    const details = page.getByTestId("contact-details");
    await expect(details.getByTestId("contact-phone")).toHaveText("(212) 555-0100");
    await expect(details.getByTestId("contact-phone")).toHaveAttribute("href", "tel:+12125550100");
    await expect(details.getByTestId("contact-email")).toHaveAttribute("href", "mailto:support@example.com");
    await expect(details.getByTestId("office")).toHaveCount(2);
    await expect(details).toContainText("New York, NY 10001, USA");
    await expect(details).toContainText("Noida, Uttar Pradesh 201301, India");
    await expectNoAxeViolations(page);
  });
});

test.describe("contact page", () => {
  test("shows the phone in local format dialling the international one, the e-mail and both offices", async ({
    page,
    request,
  }) => {
    // What the server sent, before any JavaScript.
    const html = await (await request.get("/contact")).text();
    expect(html).toContain('href="tel:+12125550100"');

    expect((await page.goto("/contact"))?.status()).toBe(200);
    await expect(page).toHaveTitle("Contact Us | KeyHaven Tech Store");
    const phone = page.getByTestId("contact-phone");
    await expect(phone).toHaveText("(212) 555-0100");
    await expect(phone).toHaveAttribute("href", "tel:+12125550100");
    await expect(page.getByTestId("contact-email")).toHaveText("support@example.com");
    const offices = page.getByTestId("office");
    await expect(offices).toHaveCount(2);
    await expect(offices.filter({ hasText: "USA office" })).toContainText("100 Example Avenue, New York");
    await expect(offices.filter({ hasText: "India office" })).toContainText("Sector 63, Noida");
  });

  test("an empty form gets a message beside each required field", async ({ page }) => {
    await page.goto("/contact");
    await hydrated(page);
    const form = page.getByTestId("contact-form");
    await form.getByRole("button", { name: "Send message" }).click();
    await expect(form.getByText("Please enter your name.")).toBeVisible();
    await expect(form.getByText("Please enter your e-mail address.")).toBeVisible();
    await expect(form.getByText("Please enter a subject.")).toBeVisible();
    await expect(form.getByText("Please enter your message.")).toBeVisible();
    await expect(form.getByLabel("Your name")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Your name")).toBeFocused();
    await expect(form.getByLabel("Phone (optional)")).not.toHaveAttribute("aria-invalid", "true");

    await page.setViewportSize(PHONE);
    await screenshot(page, "contact-errors-phone");
    await expectNoAxeViolations(page);
  });

  test("a valid message is stored once and confirmed; reloading does not send it again", async ({ page }) => {
    await page.goto("/contact");
    await hydrated(page);
    const form = page.getByTestId("contact-form");
    await form.getByLabel("Your name").fill("Ada Lovelace");
    await form.getByLabel("E-mail address").fill("not-an-address");
    await form.getByLabel("Subject").fill("Where is my licence key?");
    await form.getByLabel("Message").fill("I paid an hour ago and have not received my Norton key yet.");
    await form.getByRole("button", { name: "Send message" }).click();
    await expect(form.getByText("Please enter a valid e-mail address, like name@example.com.")).toBeVisible();

    await form.getByLabel("E-mail address").fill("ada@example.com");
    await form.getByRole("button", { name: "Send message" }).click();
    const sent = page.getByTestId("form-sent");
    await expect(sent).toContainText("Thank you, your message has been sent.");
    await expect(page).toHaveURL(/\/contact\?sent=1#message$/);
    await expect(sent).toBeFocused();
    await expect(page.getByTestId("contact-form")).toHaveCount(0);

    // Post/redirect/get: a reload asks for the page again, it does not post the form again.
    const reload = await page.reload();
    expect(reload?.request().method()).toBe("GET");
    await expect(page.getByTestId("form-sent")).toBeVisible();

    await page.getByRole("link", { name: "Send another message" }).click();
    await expect(page.getByTestId("contact-form")).toBeVisible();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the server checks the form, keeps what was typed and confirms a valid message", async ({
      page,
    }) => {
      await page.goto("/contact");
      const form = page.getByTestId("contact-form");
      await form.getByLabel("Your name").fill("Ada Lovelace");
      await form.getByLabel("Message").fill("Too short");
      const [refused] = await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        form.getByRole("button", { name: "Send message" }).click(),
      ]);
      expect(refused.status()).toBe(400);
      await expect(form.getByText("Please enter your e-mail address.")).toBeVisible();
      await expect(form.getByText("Please write at least 10 characters.")).toBeVisible();
      await expect(form.getByLabel("Your name")).toHaveValue("Ada Lovelace");

      await form.getByLabel("E-mail address").fill("ada@example.com");
      await form.getByLabel("Subject").fill("Question");
      await form.getByLabel("Message").fill("Do you ship routers to Alaska?");
      await form.getByRole("button", { name: "Send message" }).click();
      await expect(page.getByTestId("form-sent")).toBeVisible();
      await expect(page).toHaveURL(/\/contact\?sent=1#message$/);
    });
  });

  test("a huge post is refused with a short message, not an error page, and is not echoed", async ({
    request,
  }) => {
    const response = await request.post("/contact", {
      form: {
        name: "Ada",
        email: "ada@example.com",
        subject: "Big",
        message: "x".repeat(1024 * 1024),
      },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(413);
    expect(await response.text()).toBe("This request is too large: this address takes at most 128 KiB.");
  });

  test("a bot that fills in the hidden field is answered as if its post had been sent", async ({
    request,
  }) => {
    const response = await request.post("/contact", {
      form: {
        name: "Bot",
        email: "bot@example.com",
        subject: "Offer",
        message: "Cheap followers for your store!",
        website: "https://spam.example",
      },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("/contact?sent=1#message");
  });

  test("the contact page fits a phone and passes axe there", async ({ page }) => {
    await page.goto("/contact");
    await screenshot(page, "contact-desktop");
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "contact-phone");
    await expectNoAxeViolations(page);
  });
});

test.describe("digital services", () => {
  test("/digital lists the four services, each linking to its page", async ({ page }) => {
    expect((await page.goto("/digital"))?.status()).toBe(200);
    await expect(page).toHaveTitle("Digital Services | KeyHaven Tech Store");
    const cards = page.getByTestId("service-card");
    await expect(cards).toHaveCount(4);
    for (const [index, slug] of [
      "digital-marketing",
      "web-development",
      "content-writing",
      "app-development",
    ].entries()) {
      await expect(cards.nth(index)).toHaveAttribute("href", `/digital/${slug}`);
    }
    await expect(cards.nth(1)).toContainText("Web Development");
    await expect(cards.nth(1)).toContainText("$499.00");
    await screenshot(page, "digital-desktop");
    await expectNoAxeViolations(page);

    await hydrated(page);
    await cards.nth(1).click();
    await expect(page).toHaveURL(/\/digital\/web-development$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Web Development");
  });

  test("a service page shows its description and packages with prices and features", async ({ page }) => {
    expect((await page.goto("/digital/web-development"))?.status()).toBe(200);
    await expect(page).toHaveTitle("Web Development Services | KeyHaven Tech Store");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Web Development");
    await expect(page.getByText("Fast, mobile-friendly websites and online stores")).toBeVisible();
    await expect(
      page.getByTestId("service-body").locator("strong", { hasText: "Our process" }),
    ).toBeVisible();
    const packages = page.getByTestId("package");
    await expect(packages).toHaveCount(3);
    await expect(packages.nth(0)).toContainText("Starter");
    await expect(packages.nth(0).getByTestId("package-price")).toHaveText("$499.00");
    await expect(packages.nth(1).getByTestId("package-price")).toHaveText("$1,199.00");
    await expect(packages.nth(2).getByTestId("package-price")).toHaveText("$2,499.00");
    await expect(packages.nth(2)).toContainText("Payment gateway integration");
  });

  test("a quote request: empty form refused field by field, a valid one confirmed", async ({ page }) => {
    await page.goto("/digital/web-development");
    await hydrated(page);
    const form = page.getByTestId("quote-form");
    await form.getByRole("button", { name: "Request a quote" }).click();
    await expect(form.getByText("Please enter your name.")).toBeVisible();
    await expect(form.getByText("Please enter your e-mail address.")).toBeVisible();
    await expect(form.getByText("Please enter a few words about your project.")).toBeVisible();
    await expect(form.getByLabel("Company (optional)")).not.toHaveAttribute("aria-invalid", "true");

    // Choosing a package on its card selects it in the form.
    const growth = page.getByTestId("package").filter({ hasText: "Growth" });
    await growth.getByRole("link", { name: "Choose Growth" }).click();
    await expect(form.getByLabel("Package")).toHaveValue("Growth");
    await expect(growth.getByRole("link", { name: "Growth selected" })).toBeVisible();

    await form.getByLabel("Your name").fill("Grace Hopper");
    await form.getByLabel("E-mail address").fill("grace@example.com");
    await form.getByLabel("Company (optional)").fill("Hopper Consulting");
    await form.getByLabel("About your project").fill("A 10-page site with a blog, live by June.");
    await form.getByRole("button", { name: "Request a quote" }).click();
    await expect(page.getByTestId("form-sent")).toContainText("Thank you, your quote request has been sent.");
    await expect(page).toHaveURL(/\/digital\/web-development\?sent=1#quote$/);
    const reload = await page.reload();
    expect(reload?.request().method()).toBe("GET");
    await expect(page.getByTestId("form-sent")).toBeVisible();
  });

  test("a package the service does not offer is refused by the server", async ({ request }) => {
    const response = await request.post("/digital/web-development", {
      form: {
        packageName: "Platinum",
        name: "Grace",
        email: "grace@example.com",
        message: "Please quote for the platinum package.",
      },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("Please choose one of the packages listed");
  });

  test("an unknown service is the 404 page", async ({ page, request }) => {
    expect((await request.post("/digital/nope", { form: { name: "x" }, maxRedirects: 0 })).status()).toBe(
      404,
    );
    const response = await page.goto("/digital/nope");
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toBeVisible();
    await expect(page.getByTestId("site-header")).toBeVisible();
  });

  test("a service page passes axe, and it and the about page fit a phone", async ({ page }) => {
    await page.goto("/digital/web-development");
    await screenshot(page, "digital-web-development-desktop");
    await expectNoAxeViolations(page);
    await page.setViewportSize(PHONE);
    for (const [path, name] of [
      ["/digital/web-development", "digital-web-development-phone"],
      ["/about", "about-phone"],
    ] as const) {
      await page.goto(path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(
        PHONE.width,
      );
      await screenshot(page, name);
    }
  });
});
