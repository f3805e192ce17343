import type { ReactNode } from "react";
import type { Address } from "~db/schema/orders";
import { addressLines } from "~/lib/address";
import { type Currency, formatMoney } from "~/lib/money";
import { EmailLayout, FINE_PRINT, LineBreaks, renderEmail } from "~/modules/email/layout";
import type { BuyerOrderView } from "../order-view";
import { expiryText } from "../labels";
import { lineExtras, totalsRows, type TotalsSource } from "../totals";

/**
 * An order e-mail's order: the buyer's view of it (order-view.ts `buyerOrderView`, what their order page shows), with
 * its link, the way back to it and the store's name and support contact (orders.server.ts `orderEmailView`). Its
 * discount code and tax are those the order was charged ('' and zeros for none); its addresses are printed as the
 * order page prints them (lib/address.ts), with no shipping address when nothing ships.
 */
export type EmailOrder = Pick<
  BuyerOrderView,
  | "number"
  | "email"
  | "status"
  | "paymentMethod"
  | keyof TotalsSource
  | "buyerTaxId"
  | "billingAddress"
  | "shippingAddress"
  | "awaitingKeys"
> &
  Partial<Pick<BuyerOrderView, "heldCheckHours">> & {
    lines: Array<
      Pick<
        BuyerOrderView["lines"][number],
        | "name"
        | "quantity"
        | "unitPriceCents"
        | "lineTotalCents"
        | "discountCents"
        | "taxes"
        | "kind"
        | "keys"
      > &
        Partial<Pick<BuyerOrderView["lines"][number], "keysExpireAt">>
    >;
    link: string;
    /** The order lookup page (absolute, the number filled in): the way back when a newer e-mail retires the link. */
    lookupLink: string;
    storeName: string;
    /** The store's support e-mail and phone (settings), said at the end of the e-mail. */
    supportEmail?: string;
    supportPhone?: string;
    /** How to pay a bank transfer still due, as lines of text; none otherwise. */
    bankTransferInstructions?: string | null;
    /** The invoice attached to the e-mail (INV-000123), said in its text. */
    invoiceNumber?: string;
  };

type EmailLine = EmailOrder["lines"][number];

/** A line's discount and tax in words ('' for neither). */
const extrasOf = (order: EmailOrder, line: EmailLine) =>
  lineExtras(line, order.pricesIncludeTax, order.currency);

function linesText(order: EmailOrder, withKeys: boolean) {
  return order.lines
    .map((line) => {
      const keys =
        withKeys && line.keys.length > 0
          ? `\n    Licence key${line.keys.length > 1 ? "s" : ""}: ${line.keys.join(", ")}${
              line.keysExpireAt ? ` (${expiryText(line.keysExpireAt)})` : ""
            }`
          : "";
      const extras = extrasOf(order, line);
      return `  ${line.quantity} × ${line.name} — ${formatMoney(line.lineTotalCents, order.currency)}${extras ? ` (${extras})` : ""}${keys}`;
    })
    .join("\n");
}

const rowsOf = (order: EmailOrder) => totalsRows(order);

function totalsText(order: EmailOrder) {
  const rows = rowsOf(order).map((row) => `${row.label}: ${row.amount}`);
  if (order.buyerTaxId) rows.push(`Your tax ID: ${order.buyerTaxId}`);
  return rows.join("\n");
}

/** The order's addresses, each a title and its lines: the name, then the lines every page and invoice print. */
function addressBlocks(order: EmailOrder): Array<{ title: string; lines: string[] }> {
  const blocks: Array<{ title: string; address: Address | null }> = [
    { title: "Billing address", address: order.billingAddress },
    { title: "Shipping address", address: order.shippingAddress },
  ];
  return blocks.flatMap(({ title, address }) =>
    address
      ? [{ title, lines: [address.name, ...addressLines(address)].filter((line) => line.trim() !== "") }]
      : [],
  );
}

const addressesText = (order: EmailOrder) =>
  addressBlocks(order)
    .map((block) => `\n\n${block.title}:\n${block.lines.join("\n")}`)
    .join("");

/** What every e-mail about an order needs: where it goes, and its link. */
type Brief = { number: number; email: string; link: string; storeName: string };

const heading = (order: Brief) => `${order.storeName}: order #${order.number}`;

function OrderLink({ order }: { order: Brief }) {
  return (
    <p>
      <a href={order.link}>View your order</a>
    </p>
  );
}

function OrderLineRow({ order, line, withKeys }: { order: EmailOrder; line: EmailLine; withKeys: boolean }) {
  const extras = extrasOf(order, line);
  return (
    <tr>
      <td style={{ padding: "6px 0" }}>
        {`${line.quantity} × ${line.name}`}
        {withKeys && line.keys.length > 0 ? (
          <>
            <br />
            <span style={{ fontFamily: "monospace", background: "#fff7ed", padding: "2px 4px" }}>
              <LineBreaks lines={line.keys} />
            </span>
            {line.keysExpireAt ? (
              <>
                <br />
                <span style={FINE_PRINT}>{expiryText(line.keysExpireAt)}</span>
              </>
            ) : null}
          </>
        ) : null}
        {extras ? (
          <>
            <br />
            <span style={FINE_PRINT}>{extras}</span>
          </>
        ) : null}
      </td>
      <td style={{ padding: "6px 0", textAlign: "right" }}>
        {formatMoney(line.lineTotalCents, order.currency)}
      </td>
    </tr>
  );
}

/** The confirmation and the receipt: the order's lines, totals and addresses, its link and the way back to it. */
function OrderSummaryEmail({
  order,
  intro,
  withKeys,
  children,
}: {
  order: EmailOrder;
  intro: string;
  withKeys: boolean;
  /** Said under the intro (how to pay by bank transfer). */
  children?: ReactNode;
}) {
  const support = supportLine(order);
  return (
    <EmailLayout heading={heading(order)}>
      <p>{intro}</p>
      {children}
      <table style={{ width: "100%", borderCollapse: "collapse" }}>
        <tbody>
          {order.lines.map((line, index) => (
            <OrderLineRow key={index} order={order} line={line} withKeys={withKeys} />
          ))}
          {rowsOf(order).map((row, index) =>
            row.key === "total" ? (
              <tr key={index}>
                <td>
                  <strong>{row.label}</strong>
                </td>
                <td style={{ textAlign: "right" }}>
                  <strong>{row.amount}</strong>
                </td>
              </tr>
            ) : (
              <tr key={index}>
                <td>{row.label}</td>
                <td style={{ textAlign: "right" }}>{row.amount}</td>
              </tr>
            ),
          )}
        </tbody>
      </table>
      {addressBlocks(order).map((block) => (
        <p key={block.title}>
          <strong>{block.title}</strong>
          <br />
          <LineBreaks lines={block.lines} />
        </p>
      ))}
      <OrderLink order={order} />
      <p style={FINE_PRINT}>
        {LOOKUP_INTRO} <a href={order.lookupLink}>Find my order</a>
      </p>
      {support ? <p style={FINE_PRINT}>{support}</p> : null}
    </EmailLayout>
  );
}

/** "Questions? support@… or (212) 555-0100", from the store's settings; empty when neither is set. */
function supportLine(order: Pick<EmailOrder, "supportEmail" | "supportPhone">) {
  const ways = [order.supportEmail, order.supportPhone].filter(Boolean);
  return ways.length > 0 ? `Questions? Write to ${ways.join(" or call ")}.` : "";
}

/** Said under the order's link: a newer e-mail about the order retires the link in this one. */
const LOOKUP_INTRO = "Link not working any more? Find your order with its number and your e-mail address:";
const lookupText = (order: EmailOrder) => `${LOOKUP_INTRO}\nFind my order: ${order.lookupLink}\n`;

const supportText = (order: EmailOrder) => (supportLine(order) ? `\n${supportLine(order)}\n` : "");

export function orderConfirmationEmail(order: EmailOrder) {
  const pendingBank = order.paymentMethod === "bank-transfer" && order.status === "pending_payment";
  const intro = pendingBank
    ? "Thank you for your order. It is waiting for your bank transfer; we deliver as soon as the payment arrives."
    : "Thank you for your order. We have received it.";
  const instructions =
    pendingBank && order.bankTransferInstructions
      ? `\n\nHow to pay:\n${order.bankTransferInstructions}\n`
      : "";
  return {
    kind: "order-confirmation",
    to: order.email,
    subject: `Your order #${order.number} at ${order.storeName}`,
    text: `${intro}${instructions}\n\nOrder #${order.number}\n${linesText(order, false)}\n\n${totalsText(order)}${addressesText(order)}\n\nView your order: ${order.link}\n\n${lookupText(order)}${supportText(order)}`,
    html: renderEmail(
      <OrderSummaryEmail order={order} intro={intro} withKeys={false}>
        {pendingBank && order.bankTransferInstructions ? (
          <p style={{ whiteSpace: "pre-line" }}>
            <strong>How to pay:</strong>
            {"\n"}
            {order.bankTransferInstructions}
          </p>
        ) : null}
      </OrderSummaryEmail>,
    ),
  };
}

export function paymentReceiptEmail(order: EmailOrder) {
  const waiting = order.awaitingKeys
    ? ` ${order.awaitingKeys} licence key${order.awaitingKeys > 1 ? "s are" : " is"} on the way: we will e-mail ${order.awaitingKeys > 1 ? "them" : "it"} shortly.`
    : "";
  const invoice = order.invoiceNumber ? ` Your invoice ${order.invoiceNumber} is attached.` : "";
  const free = order.paymentMethod === "none";
  const held =
    order.status === "held"
      ? ` We check some orders before delivering them, and are checking this one: expect your licence keys (or, if we cannot approve the order, your money back) within ${order.heldCheckHours ?? 12} hours.`
      : "";
  const intro = held
    ? `We have received your payment of ${formatMoney(order.totalCents, order.currency)}.${invoice}${held}`
    : free
      ? `Your order comes to ${formatMoney(order.totalCents, order.currency)}, so there is nothing to pay: it is confirmed.${invoice}${waiting}`
      : `We have received your payment of ${formatMoney(order.totalCents, order.currency)}.${invoice}${waiting}`;
  return {
    kind: "payment-receipt",
    to: order.email,
    subject: free ? `Order #${order.number} is confirmed` : `Payment received for order #${order.number}`,
    text: `${intro}\n\nOrder #${order.number}\n${linesText(order, true)}\n\n${totalsText(order)}${addressesText(order)}\n\nView your order: ${order.link}\n\n${lookupText(order)}${supportText(order)}`,
    html: renderEmail(<OrderSummaryEmail order={order} intro={intro} withKeys />),
  };
}

/** A new secret link to an order, asked for by its buyer; older links stop working when it is sent. */
export function orderLinkEmail(order: Brief) {
  return briefEmail(
    "order-link",
    order,
    `A new link to your order #${order.number}`,
    [`Here is a new link to your order #${order.number}. Links we sent before no longer work.`],
    [],
    ["If you did not ask for it, you can ignore this e-mail: only you receive these links."],
  );
}

/**
 * A short e-mail about one order: a heading, paragraphs, an optional block of text (licence keys), the order's link,
 * and paragraphs said after it.
 */
function BriefEmail({
  order,
  paragraphs,
  block,
  after,
}: {
  order: Brief;
  paragraphs: string[];
  block: string[];
  after: string[];
}) {
  return (
    <EmailLayout heading={heading(order)}>
      {paragraphs.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
      {block.length > 0 ? (
        <pre style={{ fontFamily: "monospace", background: "#fff7ed", padding: 8, whiteSpace: "pre-wrap" }}>
          {block.join("\n")}
        </pre>
      ) : null}
      <OrderLink order={order} />
      {after.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </EmailLayout>
  );
}

function briefEmail(
  kind: string,
  order: Brief,
  subject: string,
  paragraphs: string[],
  block: string[] = [],
  after: string[] = [],
) {
  const text = `${paragraphs.join("\n\n")}${block.length > 0 ? `\n\n${block.join("\n")}` : ""}\n\nView your order: ${order.link}\n${after.map((paragraph) => `\n${paragraph}\n`).join("")}`;
  const html = renderEmail(<BriefEmail order={order} paragraphs={paragraphs} block={block} after={after} />);
  return { kind, to: order.email, subject, text, html };
}

type KeyLines = Array<{ name: string; keys: string[] }>;
const keyBlock = (lines: KeyLines) =>
  lines.filter((line) => line.keys.length > 0).map((line) => `${line.name}: ${line.keys.join(", ")}`);

/** Keys that arrived for a waiting order: sent with each delivery, saying how many are still to come. */
export function keysDeliveredEmail(order: Brief & { lines: KeyLines; stillMissing: number }) {
  const count = order.lines.reduce((sum, line) => sum + line.keys.length, 0);
  const rest =
    order.stillMissing > 0
      ? `${order.stillMissing} more licence key${order.stillMissing > 1 ? "s are" : " is"} on the way: we e-mail ${order.stillMissing > 1 ? "them" : "it"} as soon as ${order.stillMissing > 1 ? "they arrive" : "it arrives"}.`
      : "That completes the licence keys of this order.";
  return briefEmail(
    "licence-keys",
    order,
    `Your licence key${count > 1 ? "s" : ""} for order #${order.number}`,
    [
      `Here ${count > 1 ? `are ${count} licence keys` : "is a licence key"} for your order #${order.number}.`,
      rest,
    ],
    keyBlock(order.lines),
  );
}

/** A held order the store checked and approved: its keys, any still to come, and what ships. */
export function orderApprovedEmail(order: Brief & { lines: KeyLines; stillMissing: number; toShip: number }) {
  const count = order.lines.reduce((sum, line) => sum + line.keys.length, 0);
  return briefEmail(
    "order-approved",
    order,
    `Order #${order.number} is approved`,
    [
      `We have checked your order #${order.number} and it is approved. Thank you for your patience.`,
      ...(count > 0 ? [`Here ${count > 1 ? `are your ${count} licence keys` : "is your licence key"}.`] : []),
      ...(order.stillMissing > 0
        ? [
            `${order.stillMissing} licence key${order.stillMissing > 1 ? "s are" : " is"} on the way: we e-mail ${order.stillMissing > 1 ? "them" : "it"} as soon as ${order.stillMissing > 1 ? "they arrive" : "it arrives"}.`,
          ]
        : []),
      ...(order.toShip > 0
        ? ["Your printers and routers ship soon: you get the tracking number by e-mail."]
        : []),
    ],
    keyBlock(order.lines),
  );
}

/** Every key of an order again, asked for by its buyer from the order page. */
export function keysAgainEmail(order: Brief & { lines: KeyLines }) {
  return briefEmail(
    "licence-keys-again",
    order,
    `Your licence keys for order #${order.number}, again`,
    [
      `As you asked, here are the licence keys of your order #${order.number} again.`,
      "If you did not ask for them, you can ignore this e-mail: only you receive it.",
    ],
    keyBlock(order.lines),
  );
}

/**
 * A key the customer reported broken, replaced: the new key, when it expires (the old key's date: the term runs from
 * the payment), and that the old key no longer counts.
 */
export function keyReplacedEmail(
  order: Brief & { line: string; oldHint: string; key: string; expiresAt: string | null },
) {
  const expiry = order.expiresAt ? ` (${expiryText(order.expiresAt)})` : "";
  return briefEmail(
    "licence-key-replaced",
    order,
    `A new licence key for ${order.line} (order #${order.number})`,
    [
      `You told us the licence key ending ${order.oldHint.replace(/^•+/, "")} for ${order.line} does not work. Here is a new key in its place${expiry}.`,
      "The old key is withdrawn: please use the new one.",
    ],
    [`${order.line}: ${order.key}`],
  );
}

/** A report of a broken key the store turned down, with its reply; the customer may report the key again. */
export function keyReportRejectedEmail(order: Brief & { line: string; oldHint: string; reply: string }) {
  return briefEmail(
    "licence-key-report-rejected",
    order,
    `About your licence key for ${order.line} (order #${order.number})`,
    [
      `We have checked the licence key ending ${order.oldHint.replace(/^•+/, "")} for ${order.line} that you reported, and we are not replacing it. Our reply:`,
      order.reply,
      "If it still does not work, report it again from your licences page, or write to us.",
    ],
  );
}

/** An unpaid order called off by the store: nothing is owed, and a bank transfer must not be sent. */
export function orderCancelledEmail(order: Brief & { awaitedBankTransfer: boolean }) {
  return briefEmail("order-cancelled", order, `Your order #${order.number} is cancelled`, [
    `We have cancelled your order #${order.number}. Nothing is owed for it.`,
    ...(order.awaitedBankTransfer
      ? [
          "Please do not send the bank transfer for it. If you have sent it already, write to us and we will send the money back.",
        ]
      : []),
    "If you did not expect this, or still want what you ordered, write to us or place a new order.",
  ]);
}

/** An unpaid order that was not paid in time: cancelled by the store's clock, nothing owed. */
export function orderExpiredEmail(order: Brief & { awaitedBankTransfer: boolean; hours: number }) {
  const within = `${order.hours} hour${order.hours === 1 ? "" : "s"}`;
  return briefEmail("order-expired", order, `Your order #${order.number} has expired`, [
    `We did not receive the payment for your order #${order.number} within ${within} of placing it, so it has expired and is cancelled. Nothing is owed for it.`,
    ...(order.awaitedBankTransfer
      ? [
          "Please do not send the bank transfer for it. If you have sent it already, write to us and we will send the money back.",
        ]
      : []),
    "If you still want what you ordered, place a new order.",
  ]);
}

/** Money given back. */
export function refundEmail(
  order: Brief & {
    /** What the amounts are in: the order's currency. */
    currency: Currency;
    amountCents: number;
    totalRefundedCents: number;
    full: boolean;
    lines: string[];
    /** Licence keys the customer had were withdrawn with the refunded lines. */
    keysWithdrawn: boolean;
    reason: string;
    /** The credit note attached to the e-mail (CN-000007). */
    creditNoteNumber?: string;
  },
) {
  return briefEmail(
    "refund",
    order,
    `Refund of ${formatMoney(order.amountCents, order.currency)} for order #${order.number}`,
    [
      order.full
        ? `We have refunded your order #${order.number}: ${formatMoney(order.amountCents, order.currency)}.`
        : `We have refunded ${formatMoney(order.amountCents, order.currency)} of your order #${order.number} (${formatMoney(order.totalRefundedCents, order.currency)} refunded in all).`,
      ...(order.lines.length > 0
        ? [
            `Refunded: ${order.lines.join(", ")}.${order.keysWithdrawn ? " Licence keys of refunded items no longer work and are no longer shown on your order." : ""}`,
          ]
        : []),
      ...(order.reason ? [`Reason: ${order.reason}`] : []),
      "The money goes back the way you paid; your bank may take a few days to show it.",
      ...(order.creditNoteNumber ? [`Your credit note ${order.creditNoteNumber} is attached.`] : []),
    ],
  );
}

/** A parcel is on its way. */
export function shipmentEmail(
  order: Brief & {
    carrier: string;
    trackingNumber: string;
    trackingLink: string | null;
    lines: string[];
    stillToShip: number;
  },
) {
  return briefEmail("shipment", order, `Order #${order.number} has shipped`, [
    `Your order #${order.number} from ${order.storeName} is on its way: ${order.lines.join(", ")}.`,
    `Carrier: ${order.carrier}. Tracking number: ${order.trackingNumber}`,
    ...(order.trackingLink ? [`Track your parcel: ${order.trackingLink}`] : []),
    ...(order.stillToShip > 0
      ? [`${order.stillToShip} more item${order.stillToShip > 1 ? "s ship" : " ships"} separately.`]
      : []),
  ]);
}
