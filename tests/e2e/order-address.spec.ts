import { readFileSync } from "node:fs";
import { expect } from "@playwright/test";
import { pdfText } from "../support/pdf";
import { signInAsAdmin } from "./admin";
import { addToCart } from "./cart";
import { fillCheckout } from "./checkout-form";
import { hydrated } from "./hydrated";
import { waitForMail } from "./mail";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const run = Date.now().toString(36);

test("a US address reads the same on the order page, in the order e-mails, on the invoice and in the admin", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const buyer = `address.${run}@example.com`;
  // A licence and a printer: a billing address and a shipping address (the same one).
  await addToCart(page, "/antivirus/norton/360-deluxe");
  await addToCart(page, "/printer/hp-laserjet-pro-m404n");
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, {
    email: buyer,
    name: "Ada Lovelace",
    street: "1 Example Street",
    city: "New York",
    state: "NY",
    postalCode: "10001",
    method: "sandbox",
  });
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+/);
  await hydrated(page);
  const number = Number(/\/order\/(\d+)/.exec(page.url())![1]);
  const expected = ["Ada Lovelace", "1 Example Street", "New York, NY 10001", "United States"];

  // The order page, line by line.
  for (const block of ["order-billing-address", "order-shipping-address"]) {
    const shown = (await page.getByTestId(block).innerText()).split("\n").map((line) => line.trim());
    expect(shown, block).toEqual(expected);
  }
  await screenshot(page.getByTestId("order-billing-address").locator("../.."), "order-address-1280");

  // The confirmation and the receipt print the same lines, in their text and their HTML.
  for (const subject of [/^Your order #/, /^Payment received/]) {
    const mail = await waitForMail(baseURL!, (sent) => sent.to === buyer && subject.test(sent.subject));
    expect(mail.text).toContain(`Billing address:\n${expected.join("\n")}`);
    expect(mail.text).toContain(`Shipping address:\n${expected.join("\n")}`);
    expect(mail.html).toContain(expected.join("<br>"));
    expect(mail.text).not.toContain("NY, 10001");
    const view = await browser.newPage();
    await view.setContent(mail.html);
    await screenshot(view, `order-email-${subject.source.replace(/\W/g, "")}`);
    await view.close();
  }

  // The invoice.
  const documents = page.getByTestId("order-documents");
  await expect(documents.getByTestId("order-document")).toHaveCount(1);
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    documents.getByRole("link", { name: /Download invoice INV-\d+ \(PDF\)/ }).click(),
  ]);
  const invoice = await pdfText(readFileSync((await file.path())!));
  expect(invoice).toContain("New York, NY 10001");
  expect(invoice).not.toContain("NY, 10001");

  // The admin's order page.
  const admin = await browser.newPage();
  await signInAsAdmin(admin, baseURL!);
  await admin.goto(`/admin/orders/${number}`);
  await expect(admin.getByTestId("admin-order")).toContainText("New York, NY 10001");
  await expect(admin.getByTestId("admin-order")).not.toContainText("NY, 10001");
  await admin.context().close();

  await page.setViewportSize({ width: 390, height: 900 });
  await screenshot(page.getByTestId("order-billing-address").locator("../.."), "order-address-390");
});
