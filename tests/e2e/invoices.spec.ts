import { randomInt, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { type Browser, expect, type Page } from "@playwright/test";
import { pdfText } from "../support/pdf";
import { freshAdminAddress, signInAsAdmin, topUpKeys } from "./admin";
import { hydrated } from "./hydrated";
import { waitForMail } from "./mail";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const run = `${Date.now().toString(36)}${randomInt(1000)}`;
const PHONE = { width: 360, height: 780 };

async function shot(page: Page, name: string) {
  await expect(page.getByTestId("route-spinner")).toHaveCount(0);
  await screenshot(page, `invoices-${name}`);
  await page.setViewportSize(PHONE);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `${name} at 360 px`,
  ).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, `invoices-${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** Clicks a link that downloads a file; returns the file's name and bytes. */
async function download(page: Page, link: ReturnType<Page["getByRole"]>) {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
}

async function customerPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": freshAdminAddress() },
  });
  return context.newPage();
}

test("a paid order's invoice: on the order page, in the receipt, for the admin, then a refund's credit note", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await topUpKeys(browser, baseURL!, "/antivirus/norton/antivirus-plus", 2);
  const buyer = `invoice.${run}@example.com`;
  const customer = await customerPage(browser, baseURL!);
  // Checkout with the sandbox payment: a licence and a router, so the order has shipping.
  const placed = await customer.request.post("/payment", {
    form: {
      idempotencyKey: randomUUID(),
      email: buyer,
      "billing.name": "Grace Hopper",
      "billing.line1": "1 Example Street",
      "billing.city": "New York",
      "billing.region": "NY",
      "billing.postalCode": "10001",
      "billing.country": "US",
      shipToBilling: "on",
      paymentMethod: "sandbox",
      cart: JSON.stringify([
        { groupKey: "Norton", id: "1", quantity: 1 },
        { groupKey: "tplink", id: "1", quantity: 1 },
      ]),
      acceptTerms: "on",
    },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(placed.status(), await placed.text()).toBe(302);
  const orderPath = placed.headers()["location"]!.replace(/&placed=1$/, "");
  const number = Number(/\/order\/(\d+)/.exec(orderPath)![1]);

  await customer.goto(orderPath);
  await hydrated(customer);
  const total = (await customer.getByTestId("order-total").textContent())!;
  const shipping = (await customer.getByTestId("order-shipping").textContent())!;
  const lineTotals = await customer.getByTestId("order-line-total").allTextContents();
  expect(lineTotals).toHaveLength(2);
  const documents = customer.getByTestId("order-documents");
  await expect(documents.getByTestId("order-document")).toHaveCount(1);
  const invoiceNumber = /INV-\d{6}/.exec((await documents.textContent())!)![0];
  await shot(customer, "customer-order");
  const invoice = await download(
    customer,
    documents.getByRole("link", { name: `Download invoice ${invoiceNumber} (PDF)` }),
  );
  expect(invoice.name).toBe(`${invoiceNumber}.pdf`);
  const text = await pdfText(invoice.bytes);
  // The numbers on the order page are the numbers on the invoice.
  for (const expected of [
    `INVOICE ${invoiceNumber}`,
    `Order #${number}`,
    "Grace Hopper",
    buyer,
    "Norton AntiVirus Plus",
    `Shipping ${shipping}`,
    `Total ${total}`,
    ...lineTotals,
  ])
    expect(text).toContain(expected);

  // The receipt carries the same invoice.
  const receipt = await waitForMail(
    baseURL!,
    (mail) => mail.to === buyer && mail.subject === `Payment received for order #${number}`,
  );
  expect(receipt.text).toContain(`Your invoice ${invoiceNumber} is attached.`);
  expect(receipt.attachments.map((file) => [file.filename, file.mimeType])).toEqual([
    [`${invoiceNumber}.pdf`, "application/pdf"],
  ]);
  expect(await pdfText(receipt.attachments[0]!.content)).toBe(text);

  // Only the buyer's link opens it: a guessed or wrong key, or none, is a 404 like a missing order.
  const anonymous = await browser.newContext({ baseURL });
  const key = new URL(orderPath, baseURL).searchParams.get("key")!;
  for (const path of [
    `/order/${number}/documents/invoice.pdf`,
    `/order/${number}/documents/invoice.pdf?key=${"x".repeat(32)}`,
    `/order/${number}/documents/${invoiceNumber}.pdf?key=${key.slice(1)}x`,
    `/order/${number + 100000}/documents/invoice.pdf?key=${key}`,
  ])
    expect((await anonymous.request.get(path)).status(), path).toBe(404);
  expect((await anonymous.request.get(`/order/${number}/documents/invoice.pdf?key=${key}`)).status()).toBe(
    200,
  );
  await anonymous.close();

  // The admin downloads the same invoice from the order page, and from the e-mail it was attached to.
  await signInAsAdmin(page, baseURL!, `/admin/orders/${number}`);
  await hydrated(page);
  const panel = page.getByTestId("order-documents-panel");
  const adminCopy = await download(
    page,
    panel.getByRole("link", { name: `Download invoice ${invoiceNumber} (PDF)` }),
  );
  expect(await pdfText(adminCopy.bytes)).toBe(text);
  await page
    .getByTestId("order-emails")
    .getByRole("link", { name: `Payment received for order #${number}` })
    .click();
  const attached = page.getByTestId("email-attachments").getByRole("link", { name: `${invoiceNumber}.pdf` });
  expect(await pdfText((await download(page, attached)).bytes)).toBe(text);

  // A refund of an amount issues a credit note the customer downloads from the order page.
  await page.goto(`/admin/orders/${number}`);
  await hydrated(page);
  const form = page.getByTestId("refund-form");
  await form.getByLabel("An amount").check();
  await form.getByLabel("Amount (USD)").fill("10.00");
  await form.getByLabel("Reason (optional, told to the customer)").fill("Late delivery");
  await form.getByLabel(`Yes, refund order #${number}`).check();
  await form.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByTestId("action-notice")).toContainText(`The refund of order #${number} is recorded`);
  await expect(panel.getByTestId("order-document")).toHaveCount(2);
  const creditNumber = /CN-\d{6}/.exec((await panel.textContent())!)![0];
  await shot(page, "admin-order-documents");

  await customer.reload();
  await expect(customer.getByRole("heading", { name: "Invoice and credit notes" })).toBeVisible();
  const credit = await download(
    customer,
    customer
      .getByTestId("order-documents")
      .getByRole("link", { name: `Download credit note ${creditNumber} (PDF)` }),
  );
  expect(credit.name).toBe(`${creditNumber}.pdf`);
  const creditText = await pdfText(credit.bytes);
  expect(creditText).toContain(`CREDIT NOTE ${creditNumber}`);
  expect(creditText).toContain(`Credits invoice ${invoiceNumber}`);
  expect(creditText).toContain("Reason: Late delivery");
  expect(creditText).toContain("Total credited $10.00");
  const refundMail = await waitForMail(
    baseURL!,
    (mail) => mail.to === buyer && mail.subject.startsWith("Refund of $10.00"),
  );
  expect(refundMail.attachments.map((file) => file.filename)).toEqual([`${creditNumber}.pdf`]);
  await customer.context().close();

  // The invoices list finds both by number; its CSV holds both for the accountant.
  await page.goto(`/admin/invoices?q=${number}`);
  await expect(page.getByTestId("invoice-row")).toHaveCount(2);
  // Paid with test payments: both documents say so.
  await expect(page.getByTestId("invoice-row").getByTestId("test-order-badge")).toHaveText(["Test", "Test"]);
  await shot(page, "admin-list");
  await page.goto(`/admin/invoices?q=${creditNumber}`);
  await expect(page.getByTestId("invoice-row")).toHaveCount(1);
  const csv = await download(page, page.getByTestId("invoices-csv"));
  const rows = csv.bytes.toString("utf8").split("\r\n");
  expect(rows[0]).toContain("number,kind,date,order,buyer,email,tax_id,country,region,net");
  expect(rows.find((row) => row.startsWith(`${invoiceNumber},invoice,`))).toContain(
    `,${total.replace(/[$,]/g, "")},`,
  );
  expect(rows.find((row) => row.startsWith(`${creditNumber},credit note,`))).toContain(
    `,-10.00,USD,Test payment`,
  );

  // A range that makes no sense is said, not guessed.
  await page.goto("/admin/invoices?from=2026-03-31&to=2026-03-01");
  await expect(page.getByTestId("range-error")).toHaveText("The first day must not be after the last");
  await expect(page.getByTestId("invoice-row")).toHaveCount(0);
});
