import { randomInt } from "node:crypto";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { freshAdminAddress, signInAsAdmin, topUpKeys } from "./admin";
import { postedCheckout } from "./checkout-form";
import { hydrated } from "./hydrated";
import { sentMail, waitForMail } from "./mail";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const NORTON = "/antivirus/norton/360-deluxe";
const PHONE = { width: 360, height: 780 };

/** A client address of its own, so limits counted per client start afresh for each test and each run. */
const freshAddress = freshAdminAddress;

async function shot(page: Page, name: string) {
  await screenshot(page, `commerce-${name}`, { settle: true });
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
}

/** Places an order the way the checkout form posts it; returns its number and the path of its secret link. */
async function placeOrder(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  paymentMethod = "sandbox",
) {
  const response = await request.post("/payment", {
    form: postedCheckout(email, [{ groupKey: "Norton", id: "1", quantity: 1 }], paymentMethod),
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  const location = response.headers()["location"]!.replace(/&placed=1$/, "");
  return { number: Number(/\/order\/(\d+)/.exec(location)![1]), path: location };
}

async function setStoredCart(page: Page, cart: unknown) {
  // Written from a page of the store's address that runs none of its scripts: a store page could read (and repair)
  // the value set here before the next page, whose reading a test is about, and log it where the test cannot see.
  await page.goto("/robots.txt");
  await page.evaluate((value) => localStorage.setItem("cart", JSON.stringify(value)), cart);
}

test("the demo store's checkout says that no money moves", async ({ page }) => {
  await setStoredCart(page, [{ groupKey: "Norton", id: "1", name: "Norton 360 Deluxe", quantity: 1 }]);
  await page.goto("/payment");
  await expect(page.getByTestId("demo-notice")).toContainText("Demo store: no money moves.");
  await expect(page.getByTestId("method-sandbox")).toBeVisible();
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId("demo-notice")).toBeInViewport();
  await shot(page, "checkout-demo-phone");
});

test.describe("quantities", () => {
  test("a quantity the store cannot take is told on the product page, never changed", async ({
    page,
    browser,
    baseURL,
  }) => {
    // Earlier tests buy Norton keys too: the pool is filled, so the page can say "In stock".
    await topUpKeys(browser, baseURL!, NORTON);
    await page.goto(NORTON);
    await hydrated(page);
    await expect(page.getByTestId("product-availability")).toHaveText(
      "In stock: licence key by e-mail right after payment",
    );
    const quantity = page.getByTestId("add-quantity");
    for (const [typed, told] of [
      ["150", "At most 99 of one product fit in an order"],
      ["0", "Enter at least 1, or remove the product"],
      ["1.5", "Enter a whole number"],
    ]) {
      await quantity.fill(typed!);
      await expect(page.getByTestId("add-problem")).toHaveText(told!);
      await expect(quantity).toHaveValue(typed!);
      await expect(page.getByTestId("add-to-cart")).toBeDisabled();
    }
    await quantity.fill("98");
    await page.getByTestId("add-to-cart").click();
    await expect(page.getByTestId("cart-count")).toHaveText("98");
    // 98 in the cart: two more would make 100.
    await quantity.fill("2");
    await expect(page.getByTestId("add-problem")).toHaveText(
      "At most 99 of one product fit in an order, and your cart has 98 already",
    );
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("cart")!)[0].quantity)).toBe(98);
  });

  test("a cart line with a bad quantity is shown and fixable, not hidden behind an empty cart", async ({
    page,
  }) => {
    await setStoredCart(page, [
      { groupKey: "Norton", id: "1", name: "Norton 360 Deluxe", quantity: 1.5 },
      { groupKey: "McAfee", id: "1", name: "McAfee Total Protection", quantity: "x" },
      { groupKey: "hp", id: "1", name: "HP printer", quantity: 150 },
    ]);
    await page.goto("/cart");
    await hydrated(page);
    await expect(page.getByTestId("empty-cart")).toHaveCount(0);
    const toFix = page.getByTestId("cart-line-to-fix");
    await expect(toFix).toHaveCount(3);
    await expect(toFix.nth(0)).toContainText("Norton 360 Deluxe");
    await expect(toFix.nth(0).getByTestId("cart-line-problem")).toHaveText("Enter a whole number");
    await expect(toFix.nth(1).getByTestId("cart-line-problem")).toHaveText("Enter a number from 1 to 99");
    await expect(toFix.nth(2).getByTestId("cart-line-problem")).toHaveText(
      "At most 99 of one product fit in an order",
    );
    await expect(toFix.nth(2).getByTestId("cart-line-quantity")).toHaveValue("150");
    await expect(page.getByTestId("to-payment")).toBeDisabled();
    await expect(page.getByTestId("cart-fix-notice")).toHaveText(
      "Fix the quantities marked in red to continue.",
    );
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page);
    await shot(page, "cart-to-fix-phone");
    await page.setViewportSize({ width: 1280, height: 800 });

    // Fixed where it is shown: each line is priced once its quantity is one the store takes.
    await toFix.nth(0).getByTestId("cart-line-quantity").fill("2");
    await page
      .getByTestId("cart-line-to-fix")
      .filter({ hasText: "McAfee" })
      .getByTestId("cart-line-quantity")
      .fill("1");
    await page
      .getByTestId("cart-line-to-fix")
      .filter({ hasText: "HP" })
      .getByRole("button", { name: /One fewer/ })
      .click();
    await expect(page.getByTestId("cart-line")).toHaveCount(3);
    await expect(page.getByTestId("cart-line-to-fix")).toHaveCount(0);
    await expect(
      page.getByTestId("cart-line").filter({ hasText: "HP" }).getByTestId("cart-line-quantity"),
    ).toHaveValue("99");
    await expect(page.getByTestId("to-payment")).toBeEnabled();
    await expect(page.getByTestId("cart-count")).toHaveText("102");
    await page.setViewportSize(PHONE);
    await shot(page, "cart-fixed-phone");
    await page.setViewportSize({ width: 1280, height: 800 });

    // Typed in the cart: told, kept as typed, and the cart cannot go on until it is fixed.
    const norton = page.getByTestId("cart-line").filter({ hasText: "Norton" });
    await norton.getByTestId("cart-line-quantity").fill("150");
    const line = page.locator("li", { hasText: "Norton 360 Deluxe" });
    await expect(line.getByTestId("cart-line-problem")).toHaveText(
      "At most 99 of one product fit in an order",
    );
    await expect(line.getByTestId("cart-line-quantity")).toHaveValue("150");
    await expect(page.getByTestId("to-payment")).toBeDisabled();
    expect(
      await page.evaluate(
        () =>
          JSON.parse(localStorage.getItem("cart")!).find(
            (l: { id: string; groupKey: string }) => l.groupKey === "Norton",
          ).quantity,
      ),
    ).toBe(150);
  });

  test("the cart quote and the checkout refuse a tampered quantity with a message naming the line", async ({
    request,
    baseURL,
  }) => {
    for (const quantity of [0, -1, 1e9, 1.5, "x"]) {
      const lines = [
        { groupKey: "Norton", id: "1", quantity: 1 },
        { groupKey: "McAfee", id: "1", quantity },
      ];
      const quote = await request.post("/api/cart/quote", { data: { lines } });
      expect(quote.status(), `quote with ${quantity}`).toBe(400);
      expect(await quote.json()).toEqual({
        error: "Line 2 of your cart: the quantity must be a whole number from 1 to 99",
      });
      const order = await request.post("/payment", {
        form: postedCheckout("tamper@example.com", lines),
        headers: { Origin: baseURL! },
        maxRedirects: 0,
      });
      expect(order.status(), `checkout with ${quantity}`).toBe(400);
      expect(await order.text()).toContain(
        "Line 2 of your cart: the quantity must be a whole number from 1 to 99",
      );
    }
  });
});

test.describe("a product whose key pool is empty", () => {
  const id = `${Date.now().toString(36)}${randomInt(1000)}`;
  const product = {
    name: `E2E Empty Pool ${id}`,
    route: `/antivirus/mcafee/e2e-empty-${id}`,
  };
  let adminPage: Page;

  test.beforeAll(async ({ browser, baseURL }) => {
    adminPage = await (await browser.newContext()).newPage();
    await signInAsAdmin(adminPage, baseURL!);
    await adminPage.goto("/admin/products/new");
    await hydrated(adminPage);
    const form = adminPage.getByTestId("product-form");
    await form.getByLabel("Brand group").selectOption("McAfee");
    await form.getByLabel("Product id").fill(`e2e-empty-${id}`);
    await form.getByLabel("Name", { exact: true }).fill(product.name);
    await form.getByLabel("Page address").fill(product.route);
    await form.getByLabel("Price (USD)", { exact: true }).fill("19.99");
    await form.getByLabel("Description", { exact: true }).fill("A product with no licence keys yet.");
    await form.getByLabel("Image address").fill("/placeholder/product/mcafee-total-protection.svg");
    await form.getByLabel("When out of stock").selectOption("refuse");
    await adminPage.getByRole("button", { name: "Create product" }).click();
    await expect(adminPage).toHaveURL(/\/admin\/products\/\d+\?saved=created$/);
  });
  // Hidden again, so the catalogue's own tests see the demo store.
  test.afterAll(async () => {
    await adminPage.getByLabel("Hidden from the storefront").check();
    await adminPage.getByRole("button", { name: "Save changes" }).click();
    await expect(adminPage.getByTestId("action-notice")).toContainText("hidden");
    await adminPage.context().close();
  });

  test("shows the truth: unavailable when it takes no waiting orders, and the server refuses 99 of it", async ({
    page,
    request,
    baseURL,
  }) => {
    await page.goto(product.route);
    await expect(page.getByTestId("product-availability")).toHaveText("Unavailable: out of stock");
    await expect(page.getByTestId("add-to-cart")).toBeDisabled();
    await expect(page.getByTestId("add-to-cart")).toHaveText("Unavailable");
    await expect(page.getByText("Licence key by e-mail right after payment")).toHaveCount(0);
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page);
    await shot(page, "product-unavailable-phone");

    const cart = [{ groupKey: "McAfee", id: `e2e-empty-${id}`, name: product.name, quantity: 99 }];
    await setStoredCart(page, cart);
    await page.goto("/cart");
    const line = page.getByTestId("cart-line").filter({ hasText: product.name });
    await expect(line.getByTestId("cart-line-problem")).toHaveText("Unavailable: out of stock");
    await expect(page.getByTestId("to-payment")).toBeDisabled();

    const order = await request.post("/payment", {
      form: postedCheckout("empty-pool@example.com", cart),
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(order.status()).toBe(400);
    expect(await order.text()).toContain(
      `${product.name} is out of stock and cannot be ordered now: remove it from your cart.`,
    );
  });

  test("takes waiting orders when the admin allows them, promising keys within 24 hours", async ({
    page,
  }) => {
    await adminPage.getByLabel("When out of stock").selectOption("wait");
    await adminPage.getByRole("button", { name: "Save changes" }).click();
    await expect(adminPage.getByTestId("action-notice")).toContainText("Changes saved");

    await page.goto(product.route);
    await hydrated(page);
    await expect(page.getByTestId("product-availability")).toHaveText(
      "Out of stock: licence key by e-mail within 24 hours of payment",
    );
    await page.getByTestId("add-quantity").fill("2");
    await page.getByTestId("add-to-cart").click();
    await page.goto("/cart");
    await expect(
      page.getByTestId("cart-line").filter({ hasText: product.name }).getByTestId("cart-line-availability"),
    ).toHaveText("Out of stock: licence keys by e-mail within 24 hours of payment");
    await page.goto("/payment");
    await expect(page.getByTestId("summary-availability")).toHaveText(
      "Out of stock: licence keys by e-mail within 24 hours of payment",
    );
    await expect(page.getByTestId("place-order")).toBeEnabled();
  });
});

test("a stored cart that is not a list is logged and replaced by an empty list at once", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await setStoredCart(page, { groupKey: "Norton", id: "1", quantity: 1 });
  await page.goto("/cart");
  await expect(page.getByTestId("empty-cart")).toBeVisible();
  // Nothing was changed in the cart: the damaged value is gone all the same.
  await expect.poll(() => page.evaluate(() => localStorage.getItem("cart"))).toBe("[]");
  expect(errors.some((text) => text.includes("cart is not an array"))).toBe(true);
});

test.describe("finding an order as a guest", () => {
  test("is a link away from the footer, the empty cart, the sign-in page and the order e-mails", async ({
    page,
    request,
    baseURL,
  }) => {
    const findMyOrder = async (from: string, where: ReturnType<Page["getByTestId"]>) => {
      await page.goto(from);
      await hydrated(page);
      await where.getByRole("link", { name: "Find my order" }).click();
      await expect(page).toHaveURL(/\/order\/lookup$/);
      await expect(page.getByRole("button", { name: "Find my order" })).toBeVisible();
    };
    await findMyOrder("/", page.getByRole("contentinfo"));
    await findMyOrder("/cart", page.getByTestId("empty-cart"));
    await findMyOrder("/user/login", page.getByTestId("login-page"));
    for (const path of ["/cart", "/user/login"]) {
      await page.goto(path);
      await page.setViewportSize(PHONE);
      await expectNoSidewaysScroll(page);
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    // Both e-mails that confirm an order link to the lookup, with the order's number filled in.
    const email = `find-${randomInt(1e9)}@example.com`;
    const { number } = await placeOrder(request, baseURL!, email);
    const lookup = `${new URL(baseURL!).origin}/order/lookup?number=${number}`;
    for (const subject of [`Your order #${number} at `, `Payment received for order #${number}`]) {
      const mail = await waitForMail(
        baseURL!,
        (sent) => sent.to === email && sent.subject.startsWith(subject),
      );
      expect(mail.text, subject).toContain(`Find my order: ${lookup}`);
      await page.setContent(mail.html);
      await expect(page.getByRole("link", { name: "Find my order" }), subject).toHaveAttribute(
        "href",
        lookup,
      );
    }
    await page.goto(lookup);
    await expect(page.getByLabel("Order number")).toHaveValue(String(number));
  });

  test("accepts #1002 as well as 1002, and stops guessing with a clear message, per client and per e-mail", async ({
    page,
    request,
    baseURL,
  }) => {
    const email = `lookup-${randomInt(1e9)}@example.com`;
    const { number } = await placeOrder(request, baseURL!, email);
    await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": freshAddress() });
    await page.goto("/order/lookup");
    await hydrated(page);
    await page.getByLabel("Order number").fill(`#${number}`);
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Find my order" }).click();
    await expect(page).toHaveURL(new RegExp(`/order/${number}\\?key=`));

    // Guessing numbers for a known address, from a new client address every time.
    const guess = (n: number) =>
      request.post("/order/lookup", {
        form: { number: String(n), email },
        headers: { Origin: baseURL!, "X-Forwarded-For": freshAddress() },
        maxRedirects: 0,
      });
    const statuses: number[] = [];
    for (let n = number - 20; n < number; n++) statuses.push((await guess(n)).status());
    expect(statuses.slice(0, 9)).toEqual(Array(9).fill(404));
    expect(statuses.slice(9)).toEqual(Array(11).fill(429));
    const refused = await guess(number);
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Too many attempts. Please wait an hour and try again.");

    await page.goto("/order/lookup");
    await hydrated(page);
    await page.getByLabel("Order number").fill(String(number));
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Find my order" }).click();
    await expect(page.getByTestId("lookup-error")).toContainText("Too many attempts. Please wait");
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page);
    await shot(page, "lookup-limited-phone");
  });
});

test.describe("an order's secret link", () => {
  test("is private, can be renewed by e-mail, and an old one says how to get the new one", async ({
    page,
    request,
    baseURL,
  }) => {
    const email = `links-${randomInt(1e9)}@example.com`;
    const { number, path } = await placeOrder(request, baseURL!, email, "bank-transfer");
    const opened = await request.get(path);
    expect(opened.status()).toBe(200);
    expect(opened.headers()["cache-control"]).toBe("private, no-store");

    await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": freshAddress() });
    await page.goto(path);
    await hydrated(page);
    // Customers read words, not codes.
    await expect(page.getByTestId("order-page")).toContainText("Order placed, to be paid by bank transfer");
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page);
    await shot(page, "order-link-phone");
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole("button", { name: "E-mail me a new link" }).click();
    await expect(page.getByTestId("order-link-retired")).toBeVisible();
    await expect(page.getByTestId("order-link-sent")).toHaveText(
      `We sent a new link to ${email[0]}•••@example.com. This one no longer works.`,
    );

    const old = await request.get(path);
    expect(old.status()).toBe(410);
    expect(old.headers()["cache-control"]).toBe("private, no-store");
    const html = await old.text();
    expect(html).toContain("This order link no longer works");
    expect(html).toContain(`/order/lookup?number=${number}`);
    expect(html).not.toContain("Ada Lovelace");
    await page.goto(path);
    await hydrated(page);
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page);
    await shot(page, "order-link-retired-phone");
    await page.getByRole("link", { name: "Get a new link" }).click();
    await expect(page.getByLabel("Order number")).toHaveValue(String(number));

    const mail = await waitForMail(
      baseURL!,
      (message) => message.subject === `A new link to your order #${number}`,
    );
    expect(mail.to).toBe(email);
    const link = /View your order: (\S+)/.exec(mail.text)![1]!;
    expect(link).not.toContain(new URL(path, baseURL).searchParams.get("key"));
    await page.goto(link);
    await expect(page.getByTestId("order-page")).toContainText("A new link to this order was e-mailed");
  });

  test("asked for too often, a new link is refused beside its button, and the link in hand keeps working", async ({
    page,
    request,
    baseURL,
  }) => {
    const email = `relinks-${randomInt(1e9)}@example.com`;
    const { number, path } = await placeOrder(request, baseURL!, email, "bank-transfer");
    const subject = `A new link to your order #${number}`;
    const linksSent = async () => (await sentMail(baseURL!)).filter((mail) => mail.subject === subject);
    let current = path;
    // An order gets three new links an hour, each asked for from the newest one.
    for (let asked = 1; asked <= 3; asked += 1) {
      const answer = await request.post(current, {
        form: { intent: "new-link" },
        headers: { Origin: baseURL!, "X-Forwarded-For": freshAddress() },
      });
      // Sent: the page answering the post is the retired link's, which says so.
      expect(answer.status()).toBe(410);
      expect(await answer.text()).toContain("We sent a new link to");
      await expect.poll(async () => (await linksSent()).length).toBe(asked);
      const newest = /View your order: (\S+)/.exec((await linksSent()).at(-1)!.text)![1]!;
      current = newest.slice(new URL(newest).origin.length);
    }
    await page.goto(current);
    await hydrated(page);
    await page.getByRole("button", { name: "E-mail me a new link" }).click();
    await expect(page.getByTestId("order-link-error")).toContainText("Too many");
    await expect(page.getByTestId("order-page")).toContainText(`Order #${number}`);
    expect((await request.get(current)).status()).toBe(200);
  });
});
