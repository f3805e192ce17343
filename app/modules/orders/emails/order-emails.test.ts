import { describe, expect, it } from "vitest";
import { address } from "../../../../tests/support/orders";
import { orderConfirmationEmail, paymentReceiptEmail, shipmentEmail, type EmailOrder } from "./order-emails";
import { ownerLowStockEmail, ownerMessageEmail } from "./owner-emails";

/** What a customer may type into a name: markup and ampersands, which the HTML part escapes and the text keeps. */
const TYPED = `Ada <script>alert("x")</script> & Co`;
const ESCAPED = "Ada &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co";

const order: EmailOrder = {
  number: 1042,
  currency: "USD",
  email: "ada@example.com",
  link: "https://shop.example.com/order/1042?token=abc&x=1",
  lookupLink: "https://shop.example.com/order/lookup?number=1042",
  storeName: "Test & Store",
  status: "pending_payment",
  paymentMethod: "bank-transfer",
  subtotalCents: 4999,
  shippingCents: 0,
  totalCents: 4999,
  discountCode: "",
  discountCents: 0,
  taxes: [],
  taxCents: 0,
  pricesIncludeTax: false,
  buyerTaxId: "",
  awaitingKeys: 0,
  billingAddress: { ...address, name: TYPED, region: "NY" },
  shippingAddress: null,
  lines: [
    {
      name: "Norton <360>",
      quantity: 1,
      unitPriceCents: 4999,
      lineTotalCents: 4999,
      discountCents: 0,
      taxes: [],
      kind: "software",
      keys: ["AB<CD>&1"],
    },
  ],
  bankTransferInstructions: `Pay to ${TYPED}\nReference: Order 1042`,
};

describe("the order e-mails", () => {
  it("escape what the customer typed in the HTML part and keep it as typed in the text part", () => {
    const mail = orderConfirmationEmail(order);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain(
      `<strong>Billing address</strong><br>${ESCAPED}<br>1 Example Street<br>New York, NY 10001`,
    );
    expect(mail.html).toContain(`1 × Norton &lt;360&gt;`);
    expect(mail.html).toContain(`<strong>How to pay:</strong>\nPay to ${ESCAPED}\nReference: Order 1042</p>`);
    expect(mail.html).toContain(
      '<a href="https://shop.example.com/order/1042?token=abc&amp;x=1">View your order</a>',
    );
    expect(mail.html).toContain('<h1 style="font-size:20px">Test &amp; Store: order #1042</h1>');
    expect(mail.text).toContain(`Billing address:\n${TYPED}\n1 Example Street`);
    expect(mail.text).toContain(`How to pay:\nPay to ${TYPED}\nReference: Order 1042`);
    expect(mail.text).toContain("1 × Norton <360> — $49.99");
    expect(mail.text).toContain("View your order: https://shop.example.com/order/1042?token=abc&x=1");
    expect(mail.text).not.toContain("&amp;");
  });

  it("show licence keys as they are, escaped only in the HTML", () => {
    const receipt = paymentReceiptEmail({ ...order, status: "paid" });
    expect(receipt.html).toContain("AB&lt;CD&gt;&amp;1");
    expect(receipt.text).toContain("Licence key: AB<CD>&1");
  });

  it("put the paragraphs of a short e-mail in the HTML escaped and in the text as they are", () => {
    const mail = shipmentEmail({
      ...order,
      carrier: "UPS & Co",
      trackingNumber: "1Z<9>",
      trackingLink: null,
      lines: [TYPED],
      stillToShip: 0,
    });
    expect(mail.subject).toBe("Order #1042 has shipped");
    expect(mail.html).toContain(`<p>Your order #1042 from Test &amp; Store is on its way: ${ESCAPED}.</p>`);
    expect(mail.html).toContain("<p>Carrier: UPS &amp; Co. Tracking number: 1Z&lt;9&gt;</p>");
    expect(mail.text).toBe(
      `Your order #1042 from Test & Store is on its way: ${TYPED}.\n\nCarrier: UPS & Co. Tracking number: 1Z<9>\n\nView your order: ${order.link}\n`,
    );
  });
});

describe("the owner's e-mails", () => {
  it("escape a customer's message in the HTML, keep it as typed in the text, and reply to the customer", () => {
    const mail = ownerMessageEmail("Test Store", "owner@example.com", {
      kind: "contact",
      name: TYPED,
      email: "ada@example.com",
      phone: "",
      about: "Refund & <b>bold</b>",
      message: "First line\n<img src=x onerror=alert(1)>",
      adminUrl: "https://shop.example.com/admin/messages",
    });
    expect(mail.replyTo).toBe("ada@example.com");
    expect(mail.subject).toBe(`Contact message from ${TYPED}: Refund & <b>bold</b>`);
    expect(mail.html).not.toMatch(/<script|<img|<b>/);
    expect(mail.html).toContain(
      `<p style="white-space:pre-line">Contact message from ${ESCAPED} &lt;ada@example.com&gt;</p>`,
    );
    expect(mail.html).toContain("First line\n&lt;img src=x onerror=alert(1)&gt;");
    expect(mail.text).toContain(
      `Contact message from ${TYPED} <ada@example.com>\nAbout: Refund & <b>bold</b>`,
    );
    expect(mail.text).toContain("First line\n<img src=x onerror=alert(1)>");
  });

  it("link each product running low by its name, escaped", () => {
    const mail = ownerLowStockEmail(
      "Test Store",
      "owner@example.com",
      [
        {
          source: "keys",
          name: TYPED,
          left: 0,
          adminUrl: "https://shop.example.com/admin/products/1?tab=keys&x=1",
        },
      ],
      5,
    );
    expect(mail.html).toContain(
      `<li><a href="https://shop.example.com/admin/products/1?tab=keys&amp;x=1">${ESCAPED}</a>: no licence keys left</li>`,
    );
    expect(mail.text).toContain(
      `${TYPED}: no licence keys left\nhttps://shop.example.com/admin/products/1?tab=keys&x=1`,
    );
  });
});
