import { readFileSync } from "node:fs";
import { type Browser, expect, type Page } from "@playwright/test";
import sharp from "sharp";
import { signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { fillCheckout } from "./checkout-form";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const suffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
/** A full-page screenshot once the page has settled (revalidation done, images loaded). */
async function shot(page: Page, name: string, { settle = true } = {}) {
  if (settle) await expect(page.getByTestId("route-spinner")).toHaveCount(0);
  await screenshot(page, `admin-${name}`, { settle });
}

const png = (color: string) =>
  sharp({ create: { width: 240, height: 180, channels: 3, background: color } })
    .png()
    .toBuffer();

/** Fills the product form's text fields (the image address too, unless an upload gives it). */
async function fillProduct(
  page: Page,
  product: { group: string; id: string; name: string; route: string; price: string; img?: string },
) {
  const form = page.getByTestId("product-form");
  await form.getByLabel("Brand group").selectOption(product.group);
  await form.getByLabel("Product id").fill(product.id);
  await form.getByLabel("Name", { exact: true }).fill(product.name);
  await form.getByLabel("Page address").fill(product.route);
  await form.getByLabel("Price (USD)", { exact: true }).fill(product.price);
  await form
    .getByLabel("Description", { exact: true })
    .fill(`${product.name}, made by the end-to-end tests.`);
  if (product.img) await form.getByLabel("Image address").fill(product.img);
}

/** Creates a product through the admin form; returns its id. */
async function createProduct(page: Page, product: Parameters<typeof fillProduct>[1]) {
  await page.goto("/admin/products/new");
  await hydrated(page);
  await fillProduct(page, product);
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/\/admin\/products\/\d+\?saved=created$/);
  return Number(/\/admin\/products\/(\d+)/.exec(page.url())![1]);
}

async function buyAsGuest(browser: Browser, route: string, email: string) {
  const context = await browser.newContext();
  const shop = await context.newPage();
  await shop.goto(route);
  await hydrated(shop);
  await shop.getByTestId("add-to-cart").click();
  await expect(shop.getByTestId("toast").last()).toContainText("added to your cart");
  await shop.goto("/payment");
  await hydrated(shop);
  await fillCheckout(shop, { email, method: "sandbox" });
  await shop.getByTestId("place-order").click();
  await expect(shop).toHaveURL(/\/order\/\d+\?key=/);
  await expect(shop.getByTestId("licence-key")).toHaveCount(1);
  const key = (await shop.getByTestId("licence-key").textContent())!.trim();
  const number = Number(/\/order\/(\d+)/.exec(shop.url())![1]);
  await context.close();
  return { key, number };
}

/** The admin signs in once (sign-ins are rate-limited); every test starts signed in. */
const ADMIN_STATE = "test-results/admin-products-state.json";

test.describe("the admin's products, keys, import and files", () => {
  test.use({ storageState: ADMIN_STATE });
  test.beforeAll(async ({ browser, baseURL }) => {
    const context = await browser.newContext({ storageState: undefined });
    const page = await context.newPage();
    await signInAsAdmin(page, baseURL!);
    await context.storageState({ path: ADMIN_STATE });
    await context.close();
  });
  test.beforeEach(({ page }) => {
    page.on("dialog", (dialog) => void dialog.accept());
  });
  // The products made here (all named "E2E …") leave the storefront again, so the catalogue's own tests still see
  // the demo store. Hidden, not deleted: one of them has sold a key.
  test.afterAll(async ({ browser }) => {
    const context = await browser.newContext({ storageState: ADMIN_STATE });
    const page = await context.newPage();
    await page.goto("/admin/products?q=E2E&pageSize=100");
    await hydrated(page);
    const hide = page.getByRole("button", { name: /^Hide/ });
    while ((await hide.count()) > 0) {
      const before = await hide.count();
      await hide.first().click();
      await expect(hide).toHaveCount(before - 1);
    }
    await context.close();
  });

  test("creates a product with an uploaded image that the storefront shows at once", async ({ page }) => {
    const id = suffix();
    await page.goto("/admin/products/new");
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "New product" })).toBeVisible();

    // Nothing filled in: the browser check puts a message beside each field, nothing is posted.
    await page.getByRole("button", { name: "Create product" }).click();
    await expect(page.getByText("Enter the name")).toBeVisible();
    await expect(page.getByText("Choose a brand", { exact: true }).last()).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/products\/new$/);

    // Each upload is held until the test lets it go, so its progress bar can be seen (and cancelled).
    const held: Array<() => void> = [];
    await page.route("**/api/storage/v0/b/products/o?name=*", async (route) => {
      await new Promise<void>((release) => held.push(release));
      await route.continue().catch(() => undefined); // a cancelled upload has no request left to continue
    });
    const upload = page.getByLabel("Upload an image (PNG, JPEG, WebP or GIF)");
    await upload.setInputFiles({ name: "first try.png", mimeType: "image/png", buffer: await png("#c03") });
    await expect(page.getByRole("progressbar")).toBeVisible();
    await page.getByRole("button", { name: "Cancel the upload" }).click();
    await expect(page.getByRole("progressbar")).toHaveCount(0);
    await expect(page.getByLabel("Image address")).toHaveValue("");
    held[0]?.();

    await upload.setInputFiles({
      name: `E2E Box ${id}.png`,
      mimeType: "image/png",
      buffer: await png("#0a7"),
    });
    await expect(page.getByRole("progressbar")).toBeVisible();
    await expect(page.getByTestId("upload-progress")).toHaveAttribute("max", /\d+/);
    await shot(page, "product-uploading", { settle: false });
    await expect.poll(() => held.length).toBe(2);
    held[1]!();
    await expect(page.getByTestId("upload-done")).toBeVisible();
    expect(held).toHaveLength(2);
    const imageUrl = await page.getByLabel("Image address").inputValue();
    expect(imageUrl).toMatch(
      /^\/api\/storage\/v0\/b\/products\/o\/images%2Fe2e-box-[a-z0-9-]+\.png\?alt=media$/,
    );
    await expect(page.getByTestId("image-preview")).toHaveAttribute("src", imageUrl);

    const name = `E2E Shield ${id}`;
    const route = `/antivirus/norton/e2e-shield-${id}`;
    // An address another product has is refused by the server, beside the field.
    await fillProduct(page, {
      group: "Norton",
      id: `e2e-${id}`,
      name,
      route: "/antivirus/norton/360-deluxe",
      price: "42.50",
    });
    await page.getByLabel("Original price (USD)").fill("59.99");
    await page.getByLabel("Categories").fill("best-seller");
    await page.getByLabel("Specifications").fill("Operating System: Windows 11\nPlatform: PC");
    await page.getByRole("button", { name: "Create product" }).click();
    await expect(page.getByText(/This address belongs to Norton 360 Deluxe/)).toBeVisible();
    await shot(page, "product-conflict");

    await page.getByLabel("Page address").fill(route);
    await page.getByRole("button", { name: "Create product" }).click();
    await expect(page).toHaveURL(/\/admin\/products\/\d+\?saved=created$/);
    await expect(page.getByTestId("action-notice")).toContainText(`It is on the storefront at ${route}`);
    await expect(page.getByLabel("Image address")).toHaveValue(imageUrl);
    await shot(page, "product-form");
    await expectAccessible(page);
    const productId = Number(/\/admin\/products\/(\d+)/.exec(page.url())![1]);

    // On the storefront at its address, at once: name, price and the uploaded image.
    await page.goto(route);
    await hydrated(page);
    await expect(page.getByTestId("product-name")).toHaveText(name);
    await expect(page.getByTestId("product-price")).toContainText("$42.50");
    await expect(page.getByTestId("product-original-price")).toHaveText("$59.99");
    const image = page.getByTestId("product-image");
    await expect(image).toHaveAttribute("src", imageUrl);
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(240);
    const bytes = await page.request.get(imageUrl);
    expect(bytes.status()).toBe(200);
    expect(bytes.headers()["content-type"]).toMatch(/^image\/png/);
    await shot(page, "product-on-storefront");

    // Hidden: gone from the storefront; shown again: back.
    await page.goto(`/admin/products/${productId}`);
    await hydrated(page);
    await page.getByLabel("Hidden from the storefront").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByTestId("action-notice")).toContainText("hidden from the storefront");
    expect((await page.request.get(route)).status()).toBe(404);
    await page.getByLabel("Hidden from the storefront").uncheck();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByTestId("action-notice")).toContainText("on the storefront");
    expect((await page.request.get(route)).status()).toBe(200);

    // An unknown product is a 404.
    const missing = await page.goto("/admin/products/2147483000");
    expect(missing!.status()).toBe(404);
    await expect(page.getByTestId("admin-error")).toContainText("Not found");
    expect((await page.goto("/admin/products/abc"))!.status()).toBe(404);
  });

  test("imports keys for a software product, and selling one moves a key from available to sold", async ({
    page,
    browser,
  }) => {
    const id = suffix();
    const name = `E2E Keyed ${id}`;
    const route = `/antivirus/norton/e2e-keyed-${id}`;
    await page.goto("/admin/products/new");
    await hydrated(page);
    const productId = await createProduct(page, {
      group: "Norton",
      id: `keyed-${id}`,
      name,
      route,
      price: "19.99",
      img: "/placeholder/product/e2e-keyed.svg",
    });

    await page.goto(`/admin/keys?product=${productId}`);
    await hydrated(page);
    const pool = page.getByTestId("key-pool");
    await expect(pool.getByRole("heading", { name })).toBeVisible();
    await expect(pool.getByTestId("pool-available")).toContainText("0");
    await expect(pool.getByTestId("pool-low")).toContainText("No keys left");

    const keys = [1, 2, 3].map((n) => `E2E-${id.toUpperCase()}-000${n}`);
    await pool.getByLabel("Paste keys, one per line").fill(keys.join("\n"));
    // Where they came from: the form's supplier, cost and batch go to each pasted key.
    await pool.getByLabel("Supplier", { exact: true }).fill("Acme Keys");
    await pool.getByLabel("Cost per key ($)").fill("12.00");
    await pool.getByLabel("Batch", { exact: true }).fill("B-1");
    await pool.getByRole("button", { name: "Add keys" }).click();
    await expect(pool.getByTestId("key-import-result")).toHaveText("Added 3 keys; 0 duplicates skipped.");
    await expect(pool.getByTestId("pool-value")).toContainText("$36.00");
    // A file past the limit is refused beside the field, and nothing is sent.
    await pool.getByLabel(/Or a CSV file/).setInputFiles({
      name: "all-keys.csv",
      mimeType: "text/csv",
      buffer: Buffer.alloc(1024 * 1024 + 1, "k"),
    });
    await expect(pool.getByTestId("import-file-error")).toHaveText(
      "all-keys.csv is 1.1 MiB: a file to import can be at most 1 MiB. Split it into smaller files.",
    );
    await pool.getByRole("button", { name: "Add keys" }).click();
    await expect(pool.getByLabel(/Or a CSV file/)).toBeFocused();
    await expect(pool.getByTestId("key-import-result")).toHaveText("Added 3 keys; 0 duplicates skipped.");
    // A file with a column the import does not know is refused whole, naming it.
    await pool.getByLabel(/Or a CSV file/).setInputFiles({
      name: "keys.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`key,note\nE2E-${id.toUpperCase()}-0004,new\n`),
    });
    await pool.getByRole("button", { name: "Add keys" }).click();
    await expect(pool.getByTestId("key-import-result")).toHaveText(
      'The file has a column "note" the import does not know: its columns are key, supplier, cost and batch',
    );
    // A CSV file with its own columns (which win over the form's), a known key and a new one.
    await pool.getByLabel(/Or a CSV file/).setInputFiles({
      name: "keys.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`key,cost,batch\n${keys[0]},9.00,B-2\nE2E-${id.toUpperCase()}-0004,8.50,B-2\n`),
    });
    await pool.getByRole("button", { name: "Add keys" }).click();
    await expect(pool.getByTestId("key-import-result")).toHaveText("Added 1 key; 1 duplicate skipped.");
    await expect(pool.getByTestId("pool-available")).toContainText("4");
    await expect(pool.getByTestId("pool-assigned")).toContainText("0");
    await expect(pool.getByTestId("pool-value")).toContainText("$44.50");
    // Only masked hints, never a key.
    await expect(pool.getByTestId("recent-keys").locator("li")).toHaveCount(4);
    await expect(pool).not.toContainText(keys[0]!);
    await expect(pool.getByTestId("recent-keys")).toContainText("••••0004");
    await expect(pool.getByTestId("key-source").first()).toHaveText("batch B-2 · $8.50");
    await expect(pool.getByTestId("key-source").last()).toHaveText("Acme Keys · batch B-1 · $12.00");
    const row = page.locator(`[data-testid="pool-row"][data-product-id="${productId}"]`);
    await expect(row).toHaveAttribute("data-low", "true"); // 4 < 5
    await shot(page, "keys");
    await expectAccessible(page);

    const sale = await buyAsGuest(browser, route, `keys.${id}@example.com`);
    expect([...keys, `E2E-${id.toUpperCase()}-0004`]).toContain(sale.key);

    await page.reload();
    await expect(pool.getByTestId("pool-available")).toContainText("3");
    await expect(pool.getByTestId("pool-assigned")).toContainText("1");
    await expect(pool.getByTestId("recent-keys")).toContainText(`Sold · order #${sale.number}`);
    await expect(pool.getByTestId("pool-value")).not.toContainText("$44.50");
    // The order's margin: what the buyer paid before tax, less the $12.00 the sold key cost (the oldest goes first).
    await page.goto(`/admin/orders/${sale.number}`);
    await expect(page.getByTestId("admin-order-line-margin")).toHaveText(
      /^Keys cost \$12\.00 · margin \$7\.99$/,
    );
    await expect(page.getByTestId("admin-order-margin")).toHaveText(
      "Margin on licence keys: $7.99 (keys cost $12.00)",
    );

    // The products list shows the pool; a product with keys cannot be deleted, only hidden.
    await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
    await hydrated(page);
    const listed = page.getByTestId("product-row");
    await expect(listed).toHaveCount(1);
    await expect(listed.getByTestId("product-keys")).toContainText("3 / 1");
    await listed.getByRole("button", { name: `Delete ${name}` }).click();
    await expect(page.getByTestId("action-notice")).toContainText(
      "has licence keys on record: hide it instead of deleting it",
    );
    await listed.getByRole("button", { name: `Hide ${name}` }).click();
    await expect(page.getByTestId("action-notice")).toContainText("is hidden from the storefront");
    await expect(listed.getByTestId("hidden-badge")).toBeVisible();
    expect((await page.request.get(route)).status()).toBe(404);
    await listed.getByRole("button", { name: `Unhide ${name}` }).click();
    await expect(listed.getByTestId("hidden-badge")).toHaveCount(0);
    expect((await page.request.get(route)).status()).toBe(200);
  });

  test("the products list searches, filters by brand, sorts and pages through the URL", async ({ page }) => {
    await page.goto("/admin/products?group=hp&sort=price&dir=desc");
    await hydrated(page);
    const rows = page.getByTestId("product-row");
    await expect(rows.first()).toBeVisible();
    const prices = await rows
      .locator("td:nth-child(3)")
      .evaluateAll((cells) =>
        cells.map((cell) => Number(cell.firstChild!.textContent!.replace(/[$,]/g, ""))),
      );
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    await expect(rows.locator("td:nth-child(2)").first()).toContainText("HP");
    // Printers have a stock count, not a key pool.
    await expect(rows.first().getByTestId("product-keys")).toHaveText(/^(\d+ in stock|Out of stock)$/);
    await page.getByLabel("Brand group").selectOption("");
    await page.getByLabel("Search products").fill("norton 360");
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await expect(page).toHaveURL(/q=norton\+360/);
    await expect(page).toHaveURL(/sort=price/);
    await expect(rows.first()).toContainText("Norton 360");
    await page.goto("/admin/products?pageSize=5");
    await hydrated(page);
    await expect(rows).toHaveCount(5);
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByTestId("list-range")).toContainText("Showing 6–10");
    await shot(page, "products");
    await expectAccessible(page);
  });

  test("a CSV import with a bad row reports every row and imports nothing; the fixed file imports", async ({
    page,
  }) => {
    const id = suffix();
    const good = (n: number) =>
      `Norton,csv-${id}-${n},E2E CSV ${id} ${n},/antivirus/norton/csv-${id}-${n},${n}9.99,,"Imported, row ${n}",/placeholder/product/csv.svg`;
    const header = "group,id,name,route,price,originalPrice,description,image";
    const bad = `Norton,csv-${id}-3,E2E CSV ${id} 3,/antivirus/norton/csv-${id}-3,cheap,,Bad price,/placeholder/product/csv.svg`;
    await page.goto("/admin/products/import");
    await hydrated(page);
    await page.getByLabel("Or paste the CSV").fill([header, good(1), good(2), bad].join("\n"));
    await page.getByRole("button", { name: "Check" }).click();
    const report = page.getByTestId("import-report");
    await expect(page.getByTestId("import-summary")).toContainText("1 of 3 rows have errors");
    const row = (n: number) => report.locator(`[data-testid="import-row"][data-row="${n}"]`);
    await expect(row(2)).toHaveAttribute("data-status", "create");
    await expect(row(3)).toHaveAttribute("data-status", "create");
    await expect(row(4)).toHaveAttribute("data-status", "error");
    await expect(row(4)).toContainText("price: Enter the price like 49.99");

    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByTestId("import-summary")).toContainText("Nothing was imported");
    await shot(page, "import-errors");
    await expectAccessible(page);
    expect((await page.request.get(`/antivirus/norton/csv-${id}-1`)).status()).toBe(404);

    // A file past the limit is refused beside the field, before it is sent.
    await page.getByLabel("CSV file").setInputFiles({
      name: "huge.csv",
      mimeType: "text/csv",
      buffer: Buffer.alloc(2 * 1024 * 1024, "a"),
    });
    await expect(page.getByTestId("import-file-error")).toHaveText(
      "huge.csv is 2 MiB: a file to import can be at most 1 MiB. Split it into smaller files.",
    );
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByLabel("CSV file")).toBeFocused();
    await shot(page, "import-too-big", { settle: false });
    await expect(page.getByTestId("import-summary")).toContainText("Nothing was imported");

    // The fixed file, uploaded as a file.
    await page.getByLabel("Or paste the CSV").fill("");
    await page.getByLabel("CSV file").setInputFiles({
      name: "fixed.csv",
      mimeType: "text/csv",
      buffer: Buffer.from([header, good(1), good(2), bad.replace(",cheap,", ",5.00,")].join("\r\n")),
    });
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByTestId("import-summary")).toHaveText(
      "Imported fixed.csv: 3 created, 0 updated, 0 unchanged.",
    );
    await expect(report.locator('[data-status="create"]')).toHaveCount(3);
    await shot(page, "import-done");
    await page.goto(`/antivirus/norton/csv-${id}-2`);
    await hydrated(page);
    await expect(page.getByTestId("product-name")).toHaveText(`E2E CSV ${id} 2`);
    await expect(page.getByTestId("product-price")).toContainText("$29.99");

    // A file without the header row is refused as a whole.
    await page.goto("/admin/products/import");
    await hydrated(page);
    await page.getByLabel("Or paste the CSV").fill(good(1));
    await page.getByRole("button", { name: "Check" }).click();
    await expect(page.getByTestId("import-error")).toContainText("The first row must name the columns");
  });

  test("a CSV check's report comes before the column help and takes the focus, on a phone too", async ({
    page,
  }) => {
    const id = suffix();
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto("/admin/products/import");
    await hydrated(page);
    await page
      .getByLabel("Or paste the CSV")
      .fill(
        `group,id,name,route,price,description,image\nNorton,csv-${id},E2E CSV ${id},/antivirus/norton/csv-${id},cheap,Bad price,/placeholder/product/csv.svg`,
      );
    await page.getByRole("button", { name: "Check" }).click();
    const report = page.getByRole("region", { name: "Check report" });
    await expect(report).toBeFocused();
    await expect(report).toBeInViewport();
    await expect(report.getByTestId("import-summary")).toContainText("1 of 1 row has errors");
    const top = async (name: string) => (await page.getByRole("heading", { name }).boundingBox())!.y;
    expect(await top("Check report")).toBeLessThan(await top("Columns"));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // A file refused as a whole is reported at the top, focused, the same way.
    await page.getByLabel("Or paste the CSV").fill("just one line");
    await page.getByRole("button", { name: "Check" }).click();
    await expect(page.getByTestId("import-error")).toContainText("The first row must name the columns");
    await expect(page.getByRole("region", { name: "Import report" })).toBeFocused();
    await expect(page.getByTestId("import-error")).toBeInViewport();
    await shot(page, "import-check-phone");
    await expectAccessible(page);
  });

  test("the owner downloads the variants CSV, edits a price in it, checks and imports it, and the product page shows it", async ({
    page,
  }) => {
    const id = suffix();
    const route = `/antivirus/norton/e2e-variant-csv-${id}`;
    await createProduct(page, {
      group: "Norton",
      id: `e2e-variant-csv-${id}`,
      name: `E2E Variant CSV ${id}`,
      route,
      price: "30.00",
      img: "/placeholder/product/e2e.svg",
    });
    const sku = `E2E-${id}-1Y`.toUpperCase();
    const summary = page.getByTestId("import-summary");
    const report = page.getByTestId("import-report");

    // A pasted file whose header has a sku column is a variants file: its new SKU adds a variant to the product.
    await page.goto("/admin/products/import");
    await hydrated(page);
    await page
      .getByLabel("Or paste the CSV")
      .fill(`route,sku,label,price,originalPrice,term\n${route},${sku},"1 device, 1 year",30.00,40.00,12`);
    await page.getByRole("button", { name: "Import" }).click();
    await expect(summary).toHaveText("Imported: 1 created, 0 updated, 0 unchanged.");
    await expect(page.getByTestId("import-kind")).toContainText("Read as a variants file");
    await expect(report.locator('[data-status="create"]')).toContainText(sku);
    // A sku column makes it a variants file, whose own columns are then asked for.
    await page.getByLabel("Or paste the CSV").fill(`sku,label\n${sku},One`);
    await page.getByRole("button", { name: "Check" }).click();
    await expect(page.getByTestId("import-error")).toHaveText(
      'Read as a variants file (its header has a sku column). The header row lacks the columns "route", "price". The first row must name the columns.',
    );

    // The products list downloads every variant, beside the products' file.
    await page.goto("/admin/products");
    await hydrated(page);
    await page.setViewportSize({ width: 360, height: 800 });
    await expect(page.getByTestId("export-variants")).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, "products-export-variants-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("export-variants").click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^variants-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, "utf8");
    const line = `${route},${sku},"1 device, 1 year",30.00,40.00,,12,,false,0`;
    expect(csv.split("\r\n")).toContain(line);
    const others = csv.trim().split("\r\n").length - 2;
    expect(others).toBeGreaterThan(0);
    const edited = Buffer.from(csv.replace(line, line.replace(",30.00,", ",27.50,")));

    // Checked first: one change, every other variant unchanged, nothing written yet.
    await page.goto("/admin/products/import");
    await hydrated(page);
    const file = { name: "variants.csv", mimeType: "text/csv", buffer: edited };
    await page.getByLabel("CSV file").setInputFiles(file);
    await page.getByRole("button", { name: "Check" }).click();
    await expect(summary).toHaveText(
      `The file is fine: importing it would create 0, update 1 and leave ${others} unchanged. Nothing is written until you import.`,
    );
    await expect(report.locator('[data-status="update"]')).toHaveCount(1);
    await expect(report.locator('[data-status="update"]')).toContainText(sku);
    await expect(report.getByRole("columnheader", { name: "Variant" })).toBeVisible();
    await shot(page, "import-variants-check");
    await expectAccessible(page);
    await page.setViewportSize({ width: 360, height: 800 });
    await expect(report).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, "import-variants-check-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${route}?variant=${sku}`);
    await expect(page.getByTestId("product-price")).toContainText("$30.00");

    await page.goto("/admin/products/import");
    await hydrated(page);
    await page.getByLabel("CSV file").setInputFiles(file);
    await page.getByRole("button", { name: "Import" }).click();
    await expect(summary).toHaveText(`Imported variants.csv: 0 created, 1 updated, ${others} unchanged.`);

    await page.goto(`${route}?variant=${sku}`);
    await hydrated(page);
    await expect(page.getByTestId("product-price")).toContainText("$27.50");
    await expect(page.getByTestId("product-price")).not.toContainText("$30.00");
  });

  test("the owner adds a variant, sees it priced on the storefront, edits it, is told a SKU is taken, and removes it", async ({
    page,
  }) => {
    const id = suffix();
    const route = `/antivirus/norton/e2e-variants-${id}`;
    const productId = await createProduct(page, {
      group: "Norton",
      id: `e2e-variants-${id}`,
      name: `E2E Variants ${id}`,
      route,
      price: "24.99",
      img: "/placeholder/product/e2e.svg",
    });
    const sku = `E2E-${id}-2D-1Y`.toUpperCase();
    const variantForm = page.getByTestId("variant-form");
    const rows = page.getByTestId("variant-row");
    const notice = page.getByTestId("variants").getByTestId("action-notice");

    await page.getByTestId("add-variant").click();
    await hydrated(page);
    await variantForm.getByLabel("SKU").fill(sku);
    await variantForm.getByLabel("Label").fill("2 devices, 1 year");
    await variantForm.getByLabel("Price (USD)", { exact: true }).fill("24.99");
    await variantForm.getByLabel("Original price (USD)").fill("34.99");
    await variantForm.getByLabel("Term (months)").fill("12");
    await variantForm.getByRole("button", { name: "Add variant" }).click();
    await expect(page).toHaveURL(`/admin/products/${productId}?done=variant-created#variants`);
    await expect(notice).toHaveText("Variant added.");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(sku);
    await expect(rows.first()).toContainText("$24.99");
    await expect(rows.first()).toContainText("1 year");
    await expectAccessible(page, "a product's edit page with variants");
    await shot(page, "product-variants");

    // The storefront's picker offers it at its price at once.
    await page.goto(route);
    await hydrated(page);
    const option = page.locator(`[data-testid="variant-option"][data-sku="${sku}"]`);
    await expect(option).toContainText("2 devices, 1 year");
    await expect(option).toContainText("$24.99");

    await page.goto(`/admin/products/${productId}`);
    await hydrated(page);
    await rows
      .first()
      .getByRole("link", { name: `Edit ${sku}` })
      .click();
    await hydrated(page);
    await variantForm.getByLabel("Price (USD)", { exact: true }).fill("21.50");
    await variantForm.getByLabel("Price in rupees (INR)").fill("1799.00");
    await variantForm.getByRole("button", { name: "Save variant" }).click();
    await expect(notice).toHaveText("Variant saved.");
    await expect(rows.first()).toContainText("$21.50");
    await expect(rows.first().getByTestId("variant-inr-price")).toHaveText("₹1,799.00");
    await page.goto(route);
    await expect(option).toContainText("$21.50");
    // A shopper paying in rupees is offered the owner's own rupee price, not the rate's.
    await page.goto(`${route}?currency=INR`);
    await expect(option).toContainText("₹1,799.00");
    await page.goto(`${route}?currency=USD`);

    // A SKU another product uses, in another case: the message beside the field, nothing added.
    await page.goto(`/admin/products/${productId}?variant=new`);
    await hydrated(page);
    await variantForm.getByLabel("SKU").fill("bd-ts-1d-1y");
    await variantForm.getByLabel("Label").fill("1 device, 1 year");
    await variantForm.getByLabel("Price (USD)", { exact: true }).fill("19.99");
    await variantForm.getByRole("button", { name: "Add variant" }).click();
    const skuField = variantForm.getByLabel("SKU");
    await expect(skuField).toHaveAccessibleDescription(
      /The SKU BD-TS-1D-1Y is already used by Bitdefender Total Security/,
    );
    await expect(skuField).toBeFocused();
    await expect(rows).toHaveCount(1);
    await expectAccessible(page, "a refused variant form");
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, "product-variants-refused-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    // Hiding takes it off sale without deleting it; showing puts it back.
    const row = rows.first();
    await row.getByRole("button", { name: `Hide ${sku}` }).click();
    await expect(notice).toHaveText("Variant hidden: it is no longer sold.");
    await expect(row).toContainText("Hidden");
    await row.getByRole("button", { name: `Show ${sku}` }).click();
    await expect(notice).toHaveText("Variant shown: it is on sale again.");
    await expect(row).toContainText("On sale");

    await row.getByRole("button", { name: `Delete ${sku}` }).click();
    await expect(notice).toHaveText("Variant deleted.");
    await expect(rows).toHaveCount(0);
    await page.goto(route);
    await hydrated(page);
    await expect(page.getByTestId("variant-option")).toHaveCount(0);
    await expect(page.getByTestId("product-price")).toContainText("$24.99");

    // A variant with licence keys stays: the store says why and what to do instead.
    await page.goto(`/admin/products?q=${encodeURIComponent("Bitdefender Total Security")}`);
    const bitdefender = page.getByTestId("product-row").filter({ hasText: "Bitdefender Total Security" });
    await page.goto(`/admin/products/${await bitdefender.first().getAttribute("data-product-id")}`);
    await hydrated(page);
    await rows.filter({ hasText: "BD-TS-1D-1Y" }).getByRole("button", { name: "Delete BD-TS-1D-1Y" }).click();
    await expect(page.getByTestId("variants").getByRole("alert")).toContainText(
      /^BD-TS-1D-1Y cannot be deleted: it has \d+ licence keys? .*on record\. Hide it instead/,
    );
    await expect(rows.filter({ hasText: "BD-TS-1D-1Y" })).toHaveCount(1);
  });

  test("the files page lists the product images with previews, uploads and deletes", async ({ page }) => {
    const id = suffix();
    await page.goto("/admin/files");
    await hydrated(page);
    await page
      .getByLabel(/^Image \(PNG, JPEG, WebP or GIF/)
      .setInputFiles({ name: `Files ${id}.png`, mimeType: "image/png", buffer: await png("#36c") });
    await expect(page.getByTestId("upload-done")).toBeVisible();
    const row = page.locator(`[data-testid="file-row"][data-path^="images/files-${id}-"]`);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("image/png");
    await expect(row).toContainText("No product");
    const preview = row.getByRole("img");
    await expect.poll(() => preview.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(240);
    await shot(page, "files");
    await expectAccessible(page);

    const path = (await row.getAttribute("data-path"))!;
    await row.getByRole("button", { name: `Delete ${path}` }).click();
    await expect(page.getByTestId("action-notice")).toHaveText(`${path} was deleted.`);
    await expect(row).toHaveCount(0);
    expect(
      (await page.request.get(`/api/storage/v0/b/products/o/${encodeURIComponent(path)}?alt=media`)).status(),
    ).toBe(404);
  });

  test("bad posts answer 400, 404 or 413 with a message and change nothing; visitors are sent to sign in", async ({
    page,
    browser,
  }) => {
    await page.goto("/admin/products");
    await hydrated(page);
    const post = (path: string, form: Record<string, string>) =>
      page.request.post(path, { form, headers: { Origin: new URL(page.url()).origin }, maxRedirects: 0 });
    expect((await post("/admin/products", { intent: "delete", id: "abc" })).status()).toBe(400);
    expect((await post("/admin/products", { intent: "explode", id: "1" })).status()).toBe(400);
    expect((await post("/admin/products", { intent: "hide", id: "2147483000" })).status()).toBe(404);
    expect((await post("/admin/products/new", { name: "" })).status()).toBe(400);
    expect(
      (await post("/admin/products/new", { name: "x", description: "y".repeat(200_000) })).status(),
    ).toBe(413);
    const valid = {
      groupKey: "Norton",
      externalId: `ghost-${suffix()}`,
      name: "Ghost",
      description: "Never saved",
      price: "1.00",
      img: "/i.png",
      route: `/antivirus/norton/ghost-${suffix()}`,
    };
    expect((await post("/admin/products/2147483000", valid)).status()).toBe(404);
    expect((await post("/admin/products/new", { ...valid, groupKey: "NoSuchBrand" })).status()).toBe(409);
    expect((await post("/admin/products/new", { ...valid, route: "/cart/ghost" })).status()).toBe(409);
    expect((await page.request.get(valid.route)).status()).toBe(404);
    expect((await post("/admin/keys", { product: "abc", keys: "AAAAA-11111" })).status()).toBe(400);
    expect((await post("/admin/keys", { product: "2147483000", keys: "AAAAA-11111" })).status()).toBe(404);
    expect((await post("/admin/files", { intent: "delete", path: "../escape.png" })).status()).toBe(400);
    expect((await post("/admin/files", { intent: "delete", path: "images/no-such-file.png" })).status()).toBe(
      404,
    );
    expect((await post("/admin/products/import", { intent: "import", csv: "" })).status()).toBe(400);

    // A visitor's post is turned away before anything is read.
    const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const answer = await visitor.request.post("/admin/products/new", { form: valid, maxRedirects: 0 });
    expect(answer.status()).toBeGreaterThanOrEqual(300);
    expect(answer.status()).toBeLessThan(400);
    expect(answer.headers().location).toMatch(/^\/admin\?redirectTo=/);
    expect((await visitor.request.get(valid.route)).status()).toBe(404);
    await visitor.close();
  });
});
