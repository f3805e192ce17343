import { type Currency, formatMoney } from "~/lib/money";
import { EmailLayout, FINE_PRINT, renderEmail } from "~/modules/email/layout";

const BUTTON = {
  background: "#1d4ed8",
  color: "#ffffff",
  padding: "8px 16px",
  borderRadius: 6,
  textDecoration: "none",
  fontWeight: 600,
} as const;

/** One-click unsubscribe headers (RFC 8058): a mail program's "Unsubscribe" posts to the link, no sign-in needed. */
const oneClick = (link: string) => ({
  "List-Unsubscribe": `<${link}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
});

type StockAlertMail = {
  to: string;
  storeName: string;
  /** The product's name, with its variant's label when asked for one. */
  productName: string;
  /** Stop every back-in-stock e-mail to this address. */
  stopLink: string;
};

/** The only e-mail an address gets before it confirms: the link that confirms the request. */
export function stockAlertConfirmationEmail(mail: StockAlertMail & { confirmLink: string }) {
  const intro = `Someone, hopefully you, asked ${mail.storeName} to e-mail this address when ${mail.productName} is back in stock.`;
  const ask =
    "Confirm the request and we will write once, when it is back. Without a confirmation we send nothing.";
  const why = "Did not ask? Ignore this e-mail, or stop every back-in-stock e-mail to this address:";
  const text = [intro, ask, `Confirm: ${mail.confirmLink}`, `${why} ${mail.stopLink}`].join("\n\n");
  const html = renderEmail(
    <EmailLayout heading={`${mail.storeName}: confirm your back-in-stock alert`}>
      <p>{intro}</p>
      <p>{ask}</p>
      <p>
        <a href={mail.confirmLink} style={BUTTON}>
          Confirm the alert
        </a>
      </p>
      <p style={FINE_PRINT}>
        {why} <a href={mail.stopLink}>Stop back-in-stock e-mails</a>
      </p>
    </EmailLayout>,
  );
  return {
    kind: "stock-alert-confirmation",
    to: mail.to,
    subject: `Confirm: e-mail me when ${mail.productName} is back`,
    text,
    html,
    headers: oneClick(mail.stopLink),
  };
}

/** The one e-mail a confirmed request gets: it is back, with the link to its page. */
export function backInStockEmail(mail: StockAlertMail & { productLink: string }) {
  const intro = `Good news: ${mail.productName} is back in stock at ${mail.storeName}.`;
  const done = "This was the one e-mail you asked for: your alert is now done.";
  const why = "You get this e-mail because you asked for it and confirmed. Stop every back-in-stock e-mail:";
  const text = [intro, `Buy it: ${mail.productLink}`, done, `${why} ${mail.stopLink}`].join("\n\n");
  const html = renderEmail(
    <EmailLayout heading={`${mail.storeName}: back in stock`}>
      <p>{intro}</p>
      <p>
        <a href={mail.productLink} style={BUTTON}>
          See {mail.productName}
        </a>
      </p>
      <p>{done}</p>
      <p style={FINE_PRINT}>
        {why} <a href={mail.stopLink}>Stop back-in-stock e-mails</a>
      </p>
    </EmailLayout>,
  );
  return {
    kind: "back-in-stock",
    to: mail.to,
    subject: `${mail.productName} is back in stock`,
    text,
    html,
    headers: oneClick(mail.stopLink),
  };
}

/** A line of the saved-cart reminder, priced as the store sells it now in the customer's currency. */
export type SavedCartMailLine = { name: string; quantity: number; unitPriceCents: number };

/** The saved-cart reminder: the cart's lines at today's prices, and the link that puts them back in the cart. */
export function savedCartReminderEmail(mail: {
  to: string;
  storeName: string;
  customerName: string;
  currency: Currency;
  lines: SavedCartMailLine[];
  restoreLink: string;
  unsubscribeLink: string;
}) {
  const intro = `Hello ${mail.customerName || "there"}, you left these in your cart at ${mail.storeName}:`;
  const listed = mail.lines.map(
    (line) =>
      `${line.quantity} × ${line.name}: ${formatMoney(line.unitPriceCents * line.quantity, mail.currency)}`,
  );
  const prices = "Prices as they are today; the cart shows the total with shipping and tax.";
  const why = "You get this e-mail because you left a cart while signed in. No more cart reminders:";
  const text = [
    intro,
    listed.join("\n"),
    prices,
    `Back to your cart: ${mail.restoreLink}`,
    `${why} ${mail.unsubscribeLink}`,
  ].join("\n\n");
  const html = renderEmail(
    <EmailLayout heading={`${mail.storeName}: your cart is waiting`}>
      <p>{intro}</p>
      <ul>
        {listed.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p>{prices}</p>
      <p>
        <a href={mail.restoreLink} style={BUTTON}>
          Back to your cart
        </a>
      </p>
      <p style={FINE_PRINT}>
        {why} <a href={mail.unsubscribeLink}>Unsubscribe from cart reminders</a>
      </p>
    </EmailLayout>,
  );
  return {
    kind: "saved-cart-reminder",
    to: mail.to,
    subject: "You left something in your cart",
    text,
    html,
    headers: oneClick(mail.unsubscribeLink),
  };
}
