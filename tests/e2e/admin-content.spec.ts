import { expect, type Page } from "@playwright/test";
import { signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { asShown } from "./seed-site";
import { screenshot } from "./screenshots";

// Records of their own (the e2e database is shared by the whole run); anything seeded that a test changes, it
// puts back before it ends.
const stamp = Date.now().toString(36);

async function shot(page: Page, name: string) {
  await screenshot(page, `admin-content-${name}`);
}

const notice = (page: Page) => page.getByTestId("action-notice");

test("an SEO record's new title is the storefront page's <title> at once", async ({ page, baseURL }) => {
  await signInAsAdmin(page, baseURL!, "/admin/seo");
  await expect(page.getByRole("heading", { name: "SEO records" })).toBeVisible();
  await expectAccessible(page);
  await shot(page, "seo-list");

  await page.getByLabel("Search records").fill("/antivirus");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: "Edit the record of /antivirus", exact: true }).click();
  const form = page.getByTestId("seo-form");
  const title = form.getByLabel("Title");
  const original = await title.inputValue();
  expect(original).toContain("Antivirus");

  // The browser refuses a bad route before sending; the field says why.
  const route = form.getByLabel("Route");
  await route.fill("antivirus");
  await form.getByRole("button", { name: "Save record" }).click();
  await expect(route).toHaveAttribute("aria-invalid", "true");
  await expect(route).toBeFocused();
  await expect(form).toContainText("Use a path like /antivirus");
  await route.fill("/antivirus");
  // Fixed, the field loses its message at once.
  await expect(route).not.toHaveAttribute("aria-invalid", "true");
  await expect(form).not.toContainText("Use a path like /antivirus");

  const renamed = `Antivirus Deals ${stamp}`;
  await title.fill(renamed);
  await expectAccessible(page);
  await shot(page, "seo-edit");
  await form.getByRole("button", { name: "Save record" }).click();
  await expect(notice(page)).toHaveText("SEO record saved: the page uses it now.");
  await expect(page.getByTestId("seo-row").filter({ hasText: renamed })).toBeVisible();

  await page.goto("/antivirus");
  await hydrated(page);
  await expect(page).toHaveTitle(renamed);

  // A forged post (the form's own fields, wrong values) is refused with a 400 and changes nothing.
  const forged = await page.request.post("/admin/seo", {
    form: { intent: "create", route: "no-slash", title: "x" },
    headers: { Origin: new URL(baseURL!).origin },
  });
  expect(forged.status()).toBe(400);

  // Put the seeded title back.
  await page.goto("/admin/seo?q=%2Fantivirus");
  await hydrated(page);
  await page.getByRole("link", { name: "Edit the record of /antivirus", exact: true }).click();
  await page.getByTestId("seo-form").getByLabel("Title").fill(original);
  await page.getByTestId("seo-form").getByRole("button", { name: "Save record" }).click();
  await expect(notice(page)).toBeVisible();
  await page.goto("/antivirus");
  await hydrated(page);
  await expect(page).toHaveTitle(asShown(original));
});

test("one edit of the shared Windows content shows on all three Windows pages", async ({ page, baseURL }) => {
  await signInAsAdmin(page, baseURL!, "/admin/brand-content");
  const row = page.getByTestId("brand-content-row").filter({ hasText: "Microsoft Windows Support" });
  await expect(row.getByRole("listitem")).toHaveText([/Windows 7/, /Windows 8/, /Windows XP/]);
  await expectAccessible(page);
  await shot(page, "brand-content-list");

  await row.getByRole("link", { name: /Edit/ }).click();
  await expect(page).toHaveURL(/\/admin\/brand-content\/Windows$/);
  await expect(page.getByTestId("used-by")).toContainText("/windows/windowsxp");
  const form = page.getByTestId("brand-content-form");
  const whyChoose = form.getByLabel("Why choose this brand");
  const originalWhy = await whyChoose.inputValue();
  const originalFirstFeature = await form.getByLabel("Feature 1", { exact: true }).inputValue();
  const featureCount = await form.getByTestId("feature-list").getByRole("listitem").count();
  await expect(form.getByTestId("benefit-fields")).toHaveCount(3);

  // An emptied title is refused in the browser, next to the field.
  const title = form.getByLabel("Page title");
  await title.fill("");
  await form.getByRole("button", { name: "Save brand content" }).click();
  await expect(title).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("Enter a title");
  await title.fill("Microsoft Windows Support");

  const why = `One text for every Windows edition (${stamp}).`;
  const feature = `Same-day activation help ${stamp}`;
  await whyChoose.fill(why);
  await form.getByRole("button", { name: "Remove feature 1", exact: true }).click();
  await form.getByRole("button", { name: "Add a feature" }).click();
  await form.getByLabel(`Feature ${featureCount}`, { exact: true }).fill(feature);
  await expectAccessible(page);
  await shot(page, "brand-content-edit");
  await form.getByRole("button", { name: "Save brand content" }).click();
  await expect(notice(page)).toContainText("Brand content saved");

  for (const path of ["/windows/windows7", "/windows/windows8", "/windows/windowsxp"]) {
    await page.goto(path);
    await hydrated(page);
    await expect(page.getByTestId("why-choose")).toContainText(why);
    const features = page.getByTestId("brand-features");
    await expect(features).toContainText(feature);
    await expect(features).not.toContainText(originalFirstFeature);
    await expect(features.getByRole("listitem")).toHaveCount(featureCount);
    // The reseller notice belongs to the template: no content edit removes it.
    await expect(page.getByTestId("reseller-notice")).toBeVisible();
  }

  // Put the seeded text and first feature back.
  await page.goto("/admin/brand-content/Windows");
  await hydrated(page);
  const again = page.getByTestId("brand-content-form");
  await again.getByLabel("Why choose this brand").fill(originalWhy);
  await again.getByLabel(`Feature ${featureCount}`, { exact: true }).fill(originalFirstFeature);
  await again.getByRole("button", { name: "Save brand content" }).click();
  await expect(notice(page)).toBeVisible();
  await page.goto("/windows/windows8");
  await hydrated(page);
  await expect(page.getByTestId("why-choose")).toContainText(originalWhy);
});

test("a brand's support phone must be a US number, in the browser and on the server", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!, "/admin/brand-content/Windows");
  await page.goto("/admin/brand-content/Windows");
  await hydrated(page);
  const form = page.getByTestId("brand-content-form");
  const phone = form.getByLabel("Support phone");
  const seeded = await phone.inputValue();
  const refusal = /Enter a US number, like \+1 \(212\) 555-0105/;

  // A London number is refused beside the field.
  await phone.fill("+44 20 7946 0958");
  await form.getByRole("button", { name: "Save brand content" }).click();
  await expect(phone).toHaveAttribute("aria-invalid", "true");
  await expect(phone).toHaveAccessibleDescription(refusal);
  await expectAccessible(page);

  // Without JavaScript the server refuses it with the same message.
  const plain = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const noScript = await plain.newPage();
  await noScript.context().addCookies(await page.context().cookies());
  await noScript.goto("/admin/brand-content/Windows");
  await noScript.getByLabel("Support phone").fill("+44 20 7946 0958");
  await noScript.getByRole("button", { name: "Save brand content" }).click();
  await expect(noScript.getByLabel("Support phone")).toHaveAccessibleDescription(refusal);
  await expect(noScript.getByLabel("Support phone")).toHaveValue("+44 20 7946 0958");
  await plain.close();

  // Nothing was saved.
  await page.goto("/admin/brand-content/Windows");
  await expect(page.getByTestId("brand-content-form").getByLabel("Support phone")).toHaveValue(seeded);
});

test("a new blog teaser shows on the home page, and leaves it when deleted", async ({ page, baseURL }) => {
  await signInAsAdmin(page, baseURL!, "/admin/blogs");
  await expectAccessible(page);
  await shot(page, "blogs-list");
  await page.getByTestId("new-blog").click();
  const form = page.getByTestId("blog-form");
  const title = `Keeping Printers Online ${stamp}`;
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Slug").fill("Not A Slug");
  await form
    .getByLabel("Excerpt")
    .fill("Why printers drop off Wi-Fi, and the three settings that keep them connected.");
  await form
    .getByRole("textbox", { name: "Image", exact: true })
    .fill("/placeholder/blog/setting-up-a-new-wireless-printer.svg");
  await form.getByRole("button", { name: "Add teaser" }).click();
  await expect(form.getByLabel("Slug")).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("Use lower-case words joined by hyphens");
  const slug = `keeping-printers-online-${stamp}`;
  await form.getByLabel("Slug").fill(slug);
  await expect(form.getByTestId("image-preview")).toBeVisible();
  await expectAccessible(page);
  await shot(page, "blogs-new");
  await form.getByRole("button", { name: "Add teaser" }).click();
  await expect(notice(page)).toHaveText("Teaser added.");
  await expect(page.getByTestId("blog-row").first()).toContainText(title);

  // A second teaser with the same slug is refused by the server, next to the field.
  await page.getByTestId("new-blog").click();
  const copy = page.getByTestId("blog-form");
  await copy.getByLabel("Title").fill("A copy");
  await copy.getByLabel("Slug").fill(slug);
  await copy.getByLabel("Excerpt").fill("Same slug.");
  await copy.getByRole("textbox", { name: "Image", exact: true }).fill("/placeholder/blog/x.svg");
  await copy.getByRole("button", { name: "Add teaser" }).click();
  await expect(copy.getByLabel("Slug")).toHaveAttribute("aria-invalid", "true");
  await expect(copy).toContainText("Another teaser has this slug");
  await expect(copy.getByLabel("Title")).toHaveValue("A copy");

  await page.goto("/");
  await hydrated(page);
  const teaser = page.getByTestId("blog-teaser").first();
  await expect(teaser).toContainText(title);
  await expect(teaser).toHaveAttribute("href", `/blog/${slug}`);

  await page.goto(`/admin/blogs?q=${slug}`);
  await hydrated(page);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  await expect(notice(page)).toHaveText("Teaser deleted.");
  await page.goto("/");
  await hydrated(page);
  await expect(page.getByTestId("blog-teaser").filter({ hasText: title })).toHaveCount(0);
});

// A 2 x 2 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

test("a banner with an uploaded image leads the home page once moved to the top", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!, "/admin/banners");
  await expectAccessible(page);
  await shot(page, "banners-list");
  await page.getByTestId("new-banner").click();
  const form = page.getByTestId("banner-form");
  const title = `Spring Router Sale ${stamp}`;
  await form.getByLabel("Title", { exact: true }).fill(title);
  await form.getByLabel("Subtitle (optional)").fill("Mesh Wi-Fi for every room.");
  await form.getByLabel("Upload a file for “Image”").setInputFiles({
    name: "Spring Sale.png",
    mimeType: "image/png",
    buffer: PNG,
  });
  const image = form.getByRole("textbox", { name: "Image", exact: true });
  await expect(image).toHaveValue(
    /^\/api\/storage\/v0\/b\/products\/o\/content%2Fbanners%2F.+spring-sale\.png\?alt=media$/,
  );
  await expect(form.getByTestId("image-preview")).toBeVisible();
  await form.getByLabel("Image description").fill("A router on a shelf");
  await form.getByLabel("Link").fill("/router");
  await expectAccessible(page);
  await shot(page, "banners-new");
  await form.getByRole("button", { name: "Add banner" }).click();
  await expect(notice(page)).toHaveText("Banner added.");

  // New banners go last; move it up to the top.
  const rows = page.getByTestId("banner-row");
  await expect(rows.last()).toContainText(title);
  for (let place = (await rows.count()) - 1; place > 0; place--) {
    await rows
      .nth(place)
      .getByRole("button", { name: `Move ${title} up` })
      .click();
    await expect(rows.nth(place - 1)).toContainText(title);
  }
  await expect(notice(page)).toHaveText("Banner moved.");
  await expect(rows.first().getByRole("button", { name: `Move ${title} up` })).toBeDisabled();
  await page.goto("/");
  await hydrated(page);
  const hero = page.getByTestId("banner");
  await expect(hero).toContainText(title);
  const src = await hero.locator("img").getAttribute("src");
  expect((await page.request.get(src!)).status()).toBe(200);

  // Hidden, it leaves the home page; then it is deleted.
  await page.goto("/admin/banners");
  await hydrated(page);
  const row = page.getByTestId("banner-row").filter({ hasText: title });
  await row.getByRole("button", { name: `Hide ${title}` }).click();
  await expect(row.getByTestId("banner-status")).toHaveText("Hidden");
  await page.goto("/");
  await hydrated(page);
  await expect(page.getByTestId("banner")).not.toContainText(title);
  await page.goto("/admin/banners");
  await hydrated(page);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  await expect(notice(page)).toHaveText("Banner deleted.");
  await expect(page.getByTestId("banner-row").filter({ hasText: title })).toHaveCount(0);
});

test("an edited policy page shows its new text, dated today", async ({ page, baseURL }) => {
  await signInAsAdmin(page, baseURL!, "/admin/pages");
  await expect(page.getByTestId("page-row")).toHaveCount(6);
  await expectAccessible(page);
  await shot(page, "pages-list");
  await page
    .getByTestId("page-row")
    .filter({ hasText: "/shipping-policy" })
    .getByRole("link", { name: /Edit/ })
    .click();
  const form = page.getByTestId("page-form");
  const body = form.getByLabel("Body (Markdown)");
  const original = await body.inputValue();
  const heading = `Holiday deliveries ${stamp}`;
  await body.fill(`${original}\n\n## ${heading}\n\nOrders placed after **December 20** ship in January.\n`);
  // The preview follows the typing.
  await expect(form.getByTestId("page-preview").getByRole("heading", { name: heading })).toBeVisible();
  await expectAccessible(page);
  await shot(page, "page-edit");
  await form.getByRole("button", { name: "Save page" }).click();
  await expect(notice(page)).toHaveText("Page saved: the storefront shows it now.");

  await page.goto("/shipping-policy");
  await hydrated(page);
  const shown = page.getByTestId("page-body");
  await expect(shown.getByRole("heading", { name: heading })).toBeVisible();
  await expect(shown.locator("strong", { hasText: "December 20" })).toBeVisible();
  const today = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date());
  await expect(page.getByTestId("last-updated")).toHaveText(today);

  // An emptied body is refused; then the seeded text goes back.
  await page.goto("/admin/pages/shipping-policy");
  await hydrated(page);
  // Typed before React takes over, the text would be put back by hydration.
  await hydrated(page);
  const again = page.getByTestId("page-form");
  await again.getByLabel("Body (Markdown)").fill("");
  await again.getByRole("button", { name: "Save page" }).click();
  await expect(again).toContainText("Write the page");
  await again.getByLabel("Body (Markdown)").fill(original);
  await again.getByRole("button", { name: "Save page" }).click();
  await expect(notice(page)).toBeVisible();
  await page.goto("/shipping-policy");
  await hydrated(page);
  await expect(page.getByTestId("page-body")).not.toContainText(heading);
});

test("a message sent from /contact is in the inbox, and can be marked handled", async ({ page, baseURL }) => {
  const email = `inbox-${stamp}@example.com`;
  await page.goto("/contact");
  await hydrated(page);
  const contact = page.getByTestId("contact-form");
  await contact.getByLabel("Your name").fill("Grace Hopper");
  await contact.getByLabel("E-mail address").fill(email);
  await contact.getByLabel("Subject").fill(`Licence for the office ${stamp}`);
  await contact.getByLabel("Message").fill("Do you sell volume licences for ten Windows 8 machines?");
  await contact.getByRole("button", { name: /send/i }).click();
  await expect(page.getByTestId("form-sent")).toBeVisible();

  await signInAsAdmin(page, baseURL!, "/admin/messages");
  await expect(page.getByTestId("message-row").first()).toContainText(email);
  await page.getByLabel("Search by e-mail").fill(email.toUpperCase());
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("message-row")).toHaveCount(1);
  await expectAccessible(page);
  await shot(page, "messages-list");
  await page.getByRole("link", { name: `Licence for the office ${stamp}` }).click();
  const detail = page.getByTestId("message-detail");
  await expect(detail.getByTestId("message-text")).toHaveText(
    "Do you sell volume licences for ten Windows 8 machines?",
  );
  await expect(detail).toContainText("Grace Hopper");
  await expect(detail).toContainText("Open");
  await expectAccessible(page);
  await shot(page, "messages-detail");
  await detail.getByRole("button", { name: "Mark as handled" }).click();
  await expect(notice(page)).toHaveText("Marked as handled.");
  await expect(detail).toContainText("Handled");
  await expect(page.getByTestId("message-row")).toContainText("Handled");
  await page.getByRole("link", { name: "Open", exact: true }).click();
  await expect(page.getByTestId("message-row").filter({ hasText: email })).toHaveCount(0);

  // An unknown message is a 404.
  expect((await page.goto("/admin/messages?id=987654"))?.status()).toBe(404);
});

test("the company phone edited in the admin shows in the header", async ({ page, baseURL }) => {
  await signInAsAdmin(page, baseURL!, "/admin/company");
  await expectAccessible(page);
  await shot(page, "company");
  const form = page.getByTestId("company-form");
  const local = form.getByLabel("Phone, local format");
  const international = form.getByLabel("Phone, international format");
  const [originalLocal, originalInternational] = [await local.inputValue(), await international.inputValue()];

  // Two formats of different numbers are refused.
  await local.fill("(212) 555-0177");
  await international.fill("+12125550100");
  await form.getByRole("button", { name: "Save phone" }).click();
  await expect(form).toContainText("The two formats must be the same number");
  await international.fill("+12125550177");
  await form.getByRole("button", { name: "Save phone" }).click();
  await expect(notice(page)).toHaveText("Phone saved: the header shows it now.");

  await page.goto("/");
  await hydrated(page);
  const phone = page.getByTestId("site-header").getByTestId("company-phone").first();
  await expect(phone).toContainText("(212) 555-0177");
  await expect(phone).toHaveAttribute("href", "tel:+12125550177");

  await page.goto("/admin/company");
  await hydrated(page);
  const again = page.getByTestId("company-form");
  await again.getByLabel("Phone, local format").fill(originalLocal);
  await again.getByLabel("Phone, international format").fill(originalInternational);
  await again.getByRole("button", { name: "Save phone" }).click();
  await expect(notice(page)).toBeVisible();
});

test("the content pages refuse visitors, unknown records and bad posts, writing nothing", async ({
  page,
  baseURL,
  playwright,
}) => {
  const origin = new URL(baseURL!).origin;
  // A visitor is sent to the admin sign-in, and a post of theirs changes nothing.
  const visitor = await playwright.request.newContext({ baseURL });
  const anonymous = await visitor.post("/admin/blogs", {
    form: { intent: "delete", id: "1" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(anonymous.status()).toBe(302);
  expect(anonymous.headers().location).toMatch(/^\/admin\?redirectTo=/);
  await visitor.dispose();

  await signInAsAdmin(page, baseURL!, "/admin/pages");
  for (const path of [
    "/admin/brand-content/no-such-brand",
    "/admin/pages/careers",
    "/admin/blogs?edit=987654",
    "/admin/banners?edit=abc",
    "/admin/seo?edit=987654",
  ]) {
    expect((await page.goto(path))?.status(), path).toBe(404);
  }
  await expect(page.getByTestId("admin-error")).toBeVisible();

  const post = (path: string, form: Record<string, string>) =>
    page.request.post(path, { form, headers: { Origin: origin }, maxRedirects: 0 });
  expect((await post("/admin/blogs", { intent: "delete", id: "987654" })).status()).toBe(404);
  expect((await post("/admin/banners", { intent: "move", id: "1", direction: "sideways" })).status()).toBe(
    400,
  );
  expect((await post("/admin/messages", { intent: "handled", kind: "spam", id: "1" })).status()).toBe(400);
  expect((await post("/admin/blogs", { intent: "explode" })).status()).toBe(400);
  // Too long a title, the wrong type of date: refused, nothing stored.
  const refused = await post("/admin/blogs", {
    intent: "create",
    title: "x".repeat(201),
    slug: `too-long-${stamp}`,
    excerpt: "e",
    image: "/x.svg",
    publishedAt: "yesterday",
  });
  expect(refused.status()).toBe(400);
  const found = await page.goto(`/admin/blogs?q=too-long-${stamp}`);
  expect(found?.status()).toBe(200);
  await expect(page.getByTestId("blog-row")).toHaveCount(0);
  // A body over the form limit is refused before it is read.
  const huge = await post("/admin/company", { intent: "company", phone: "1".repeat(200_000) });
  expect(huge.status()).toBe(413);
  // Brand content with two benefits is refused.
  const brand = await post("/admin/brand-content/Windows", {
    title: "T",
    bannerImg: "/x.svg",
    logo: "/x.svg",
    whyChoose: "w",
    supportPhone: "+1 (212) 555-0105",
    supportEmail: "a@example.com",
    website: "https://example.com",
    "benefits.0.title": "a",
    "benefits.0.desc": "a",
    "benefits.0.icon": "/x.svg",
    "benefits.1.title": "b",
    "benefits.1.desc": "b",
    "benefits.1.icon": "/x.svg",
    "features.0": "f",
  });
  expect(brand.status()).toBe(400);
  await page.goto("/windows/windows7");
  await hydrated(page);
  await expect(page.getByTestId("brand-benefit")).toHaveCount(3);
  await expect(page.getByTestId("brand-title")).toHaveText("Microsoft Windows Support");
});

test("at phone width no content page scrolls sideways", async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page, baseURL!, "/admin/blogs");
  for (const path of [
    "/admin/blogs",
    "/admin/blogs?new=1",
    "/admin/banners",
    "/admin/seo",
    "/admin/brand-content",
    "/admin/brand-content/Windows",
    "/admin/company",
    "/admin/pages",
    "/admin/pages/about",
    "/admin/messages",
  ]) {
    await page.goto(path);
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
  }
  await page.goto("/admin/brand-content/Windows");
  await hydrated(page);
  await shot(page, "brand-content-edit-phone");
  await page.goto("/admin/blogs");
  await hydrated(page);
  await shot(page, "blogs-list-phone");
});
