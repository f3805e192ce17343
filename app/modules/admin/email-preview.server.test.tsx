import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { type RecordedMail, recordingTransport } from "../../../tests/support/mail";
import { address, checkout, ordersTestContext } from "../../../tests/support/orders";
import { createMailer } from "../email/outbox.server";
import { attachmentContent } from "../orders/invoices.server";
import { placeOrder } from "../orders/orders.server";
import { EmailDetail } from "./components/emails-parts";
import { getEmail, orderEmails } from "./emails.server";

/** What a buyer may type as their name: markup and an ampersand. */
const TYPED = `Ada <script>alert("x")</script> & O'Brien`;

/** An attribute's or a text's value as the browser reads it from React's markup. */
const unescape = (html: string) =>
  html
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&amp;", "&");

describe.each(drivers)("the admin's view of an e-mail on %s", (driver) => {
  let database: TestDatabase;
  let orderId: number;
  const sent: RecordedMail[] = [];

  beforeAll(async () => {
    const demo = await createDemoDatabase(driver);
    database = demo.database;
    const placed = await placeOrder(
      ordersTestContext(database.db, demo.cipher),
      checkout({ email: "preview@example.com", billing: { ...address, name: TYPED } }),
    );
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    orderId = placed.orderId;
    const mailer = createMailer({
      db: database.db,
      logger: recordingLogger().logger,
      from: "store@example.com",
      transport: recordingTransport(sent),
      // The receipt's invoice, made as the server makes it.
      attachments: (attachment) => attachmentContent(database.db, attachment),
    });
    await mailer.dispatch();
  });
  afterAll(async () => {
    await database.close();
  });

  it("previews the very HTML and text that were sent, rendered once", async () => {
    const emails = await orderEmails(database.db, orderId);
    const customers = emails.filter((email) => email.to === "preview@example.com");
    expect(customers.map((email) => email.kind)).toEqual(
      expect.arrayContaining(["order-confirmation", "payment-receipt"]),
    );
    for (const row of customers) {
      const open = (await getEmail(database.db, row.id))!;
      const mail = sent.find((candidate) => candidate.to === open.to && candidate.subject === open.subject)!;
      expect(mail, open.subject).toBeDefined();
      expect(open.html).toBe(mail.html);
      expect(open.text).toBe(mail.text);

      const page = renderToStaticMarkup(
        <MemoryRouter>
          <EmailDetail email={open} closeTo="/admin/emails" resend={null} />
        </MemoryRouter>,
      );
      // The frame shows the sent HTML itself, byte for byte, under the policy that runs nothing.
      const frame = unescape(/<iframe [^>]*srcDoc="([^"]*)"/i.exec(page)![1]!);
      expect(frame).toContain(`<body>${mail.html}</body>`);
      expect(frame).toContain('http-equiv="Content-Security-Policy"');
      // And the text part is the sent text.
      const text = unescape(/<pre [^>]*data-testid="email-text"[^>]*>([^<]*)<\/pre>/.exec(page)![1]!);
      expect(text).toBe(mail.text);

      // What the buyer typed: escaped in the HTML, as typed in the text.
      expect(mail.html).not.toContain("<script>");
      expect(mail.html).toContain(
        "Ada &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; O&#x27;Brien<br>",
      );
      expect(mail.text).toContain(`Billing address:\n${TYPED}\n`);
    }
  });
});
