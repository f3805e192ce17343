import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect } from "@playwright/test";
import { test } from "./fixtures";

const validForm = (overrides: Record<string, string> = {}) => ({
  idempotencyKey: randomUUID(),
  email: "robust@example.com",
  "billing.name": "Ada Lovelace",
  "billing.line1": "1 Example Street",
  "billing.city": "New York",
  "billing.postalCode": "10001",
  "billing.country": "US",
  paymentMethod: "sandbox",
  cart: JSON.stringify([{ groupKey: "Norton", id: "1", quantity: 1 }]),
  acceptTerms: "on",
  ...overrides,
});

async function post(
  request: APIRequestContext,
  baseURL: string,
  form: Record<string, string> | string,
  contentType?: string,
) {
  return request.post("/payment", {
    ...(typeof form === "string" ? { data: form } : { form }),
    headers: { Origin: baseURL, ...(contentType ? { "Content-Type": contentType } : {}) },
    maxRedirects: 0,
  });
}

async function placedNumber(request: APIRequestContext, baseURL: string): Promise<number> {
  const response = await post(request, baseURL, validForm());
  expect(response.status()).toBe(302);
  return Number(/\/order\/(\d+)/.exec(response.headers()["location"]!)![1]);
}

test("no bad input to the checkout gives a 500 or writes an order", async ({ request, baseURL }) => {
  const before = await placedNumber(request, baseURL!);
  const cart = (lines: unknown) => validForm({ cart: JSON.stringify(lines) });
  const bad: Array<[string, Record<string, string> | string, number, string?]> = [
    ["an empty form", {}, 400],
    ["an empty body", "", 400, "application/x-www-form-urlencoded"],
    ["a huge body", validForm({ notes: "x".repeat(300_000) }), 413],
    ["a cart that is not JSON", validForm({ cart: "{not json" }), 400],
    ["a cart that is not a list", cart({ groupKey: "Norton", id: "1", quantity: 1 }), 400],
    ["an empty cart", cart([]), 400],
    ["an unknown product", cart([{ groupKey: "Norton", id: "does-not-exist", quantity: 1 }]), 400],
    ["an unknown brand group", cart([{ groupKey: "Nope", id: "1", quantity: 1 }]), 400],
    ["a negative quantity", cart([{ groupKey: "Norton", id: "1", quantity: -2 }]), 400],
    ["a fractional quantity", cart([{ groupKey: "Norton", id: "1", quantity: 1.5 }]), 400],
    ["a huge quantity", cart([{ groupKey: "Norton", id: "1", quantity: 1e9 }]), 400],
    ["a quantity as text", cart([{ groupKey: "Norton", id: "1", quantity: "2" }]), 400],
    ["an unknown payment method", validForm({ paymentMethod: "free" }), 400],
    ["a bad e-mail", validForm({ email: "nobody" }), 400],
    ["a missing idempotency key", validForm({ idempotencyKey: "" }), 400],
    ["terms not accepted", validForm({ acceptTerms: "" }), 400],
    ["a very long name", validForm({ "billing.name": "n".repeat(5000) }), 400],
    [
      "a physical item without any address",
      {
        ...validForm({ cart: JSON.stringify([{ groupKey: "hp", id: "1", quantity: 1 }]) }),
        shipToBilling: "",
        "shipping.name": "",
      },
      400,
    ],
    ["JSON instead of a form", JSON.stringify({ email: "x@example.com" }), 400, "application/json"],
  ];
  for (const [what, form, status, type] of bad) {
    const response = await post(request, baseURL!, form, type).catch((error: Error) => {
      throw new Error(`${what}: ${error.message}`);
    });
    expect(response.status(), what).toBe(status);
  }
  // Nothing was written: the next order takes the very next number.
  expect(await placedNumber(request, baseURL!)).toBe(before + 1);
});

test("forged fields are ignored: the order costs the catalogue price and starts as the server decides", async ({
  request,
  baseURL,
  page,
}) => {
  const response = await post(
    request,
    baseURL!,
    validForm({ totalCents: "1", subtotalCents: "1", status: "refunded", userId: "someone", role: "admin" }),
  );
  expect(response.status()).toBe(302);
  await page.goto(response.headers()["location"]!);
  await expect(page.getByTestId("order-status")).toHaveText("Complete");
  await expect(page.getByTestId("order-total")).not.toHaveText("$0.01");
});

test("a cross-site form post to the checkout is refused", async ({ request }) => {
  const response = await request.post("/payment", {
    form: validForm(),
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(response.status()).toBeGreaterThanOrEqual(400);
  expect(response.status()).toBeLessThan(500);
});
