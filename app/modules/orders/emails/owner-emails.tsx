import type { ReactNode } from "react";
import { formatMoney } from "~/lib/money";
import type { StoredMessage } from "~/modules/content/messages.server";
import { EmailLayout, renderEmail } from "~/modules/email/layout";
import { PAYMENT_METHOD_LABELS } from "../labels";
import type { OrderView } from "../order-view";

/** The e-mails the store writes to its owner (the support e-mail of the store's settings). */

/** An owner's e-mail: the store's name, the paragraphs (kept as written, line breaks too), more, then the link. */
function OwnerEmail({
  storeName,
  paragraphs,
  link,
  children,
}: {
  storeName: string;
  paragraphs: string[];
  link?: { url: string; label: string };
  children?: ReactNode;
}) {
  return (
    <EmailLayout heading={storeName}>
      {paragraphs.map((paragraph, index) => (
        <p key={index} style={{ whiteSpace: "pre-line" }}>
          {paragraph}
        </p>
      ))}
      {children}
      {link ? (
        <p>
          <a href={link.url}>{link.label}</a>
        </p>
      ) : null}
    </EmailLayout>
  );
}

/** A notice's order: the view every reader of it shares (order-view.ts `orderView`), its admin page and whether it is a test. */
export type OwnerOrder = Pick<OrderView, "number" | "email" | "totalCents" | "currency" | "paymentMethod"> & {
  lines: Array<Pick<OrderView["lines"][number], "name" | "quantity">>;
  adminUrl: string;
  /** Placed while the store took test payments: no money moves, and the owner must not mistake it for a sale. */
  isTest: boolean;
};

const lineList = (order: OwnerOrder) =>
  order.lines.map((line) => `${line.quantity} × ${line.name}`).join("\n");

const TEST_NOTE = "This is a test order, placed while test payments are on: no money moved.";

/** A notice about one order: its intro, then its lines, then the link to it in the admin. */
function ownerOrderEmail(
  kind: string,
  storeName: string,
  to: string,
  order: OwnerOrder,
  { subject, intro }: { subject: string; intro: string },
) {
  return {
    kind,
    to,
    subject,
    text: `${intro}\n\n${lineList(order)}\n\nOpen it in the admin: ${order.adminUrl}\n`,
    html: renderEmail(
      <OwnerEmail
        storeName={storeName}
        paragraphs={[intro, lineList(order)]}
        link={{ url: order.adminUrl, label: "Open the order" }}
      />,
    ),
  };
}

export function ownerPaidOrderEmail(storeName: string, to: string, order: OwnerOrder) {
  return ownerOrderEmail("owner-paid-order", storeName, to, order, {
    subject: order.isTest
      ? `Test order #${order.number} paid (${formatMoney(order.totalCents, order.currency)}, no money moved)`
      : `New paid order #${order.number} (${formatMoney(order.totalCents, order.currency)})`,
    intro: `Order #${order.number} is paid: ${formatMoney(order.totalCents, order.currency)} from ${order.email}. Payment: ${PAYMENT_METHOD_LABELS[order.paymentMethod]}.${order.isTest ? ` ${TEST_NOTE}` : ""}`,
  });
}

export function ownerBankTransferEmail(storeName: string, to: string, order: OwnerOrder) {
  return ownerOrderEmail("owner-bank-transfer", storeName, to, order, {
    subject: `${order.isTest ? "Test order" : "Order"} #${order.number} waits for a bank transfer (${formatMoney(order.totalCents, order.currency)})`,
    intro: `Order #${order.number} waits for a bank transfer of ${formatMoney(order.totalCents, order.currency)} from ${order.email}. Mark it paid in the admin when the money arrives.${order.isTest ? ` ${TEST_NOTE}` : ""}`,
  });
}

/** A paid order a hold rule stopped: it waits for the owner's approval, with the rules that matched. */
export function ownerHeldOrderEmail(
  storeName: string,
  to: string,
  order: OwnerOrder & { reasons: string[]; checkHours: number },
) {
  return ownerOrderEmail("owner-held-order", storeName, to, order, {
    subject: `Order #${order.number} is on hold: check it (${formatMoney(order.totalCents, order.currency)})`,
    intro: `Order #${order.number} is paid (${formatMoney(order.totalCents, order.currency)} from ${order.email}, ${PAYMENT_METHOD_LABELS[order.paymentMethod]}) but on hold: ${order.reasons.join("; ")}. Nothing is delivered until you approve it; rejecting it refunds it. The customer was told to expect an answer within ${order.checkHours} hours.${order.isTest ? ` ${TEST_NOTE}` : ""}`,
  });
}

/** A customer's message as stored (the contact form's subject, or the service a quote is for, as `about`). */
export type OwnerMessage = StoredMessage & { adminUrl: string };

/** A customer's message, for the owner to answer from their mail program: replies go to the customer. */
export function ownerMessageEmail(storeName: string, to: string, message: OwnerMessage) {
  const what = message.kind === "contact" ? "Contact message" : "Quote request";
  const from = `${message.name} <${message.email}>${message.phone ? `, ${message.phone}` : ""}`;
  return {
    kind: message.kind === "contact" ? "owner-contact-message" : "owner-quote-request",
    to,
    replyTo: message.email,
    subject: `${what} from ${message.name}: ${message.about}`.slice(0, 200),
    text: `${what} from ${from}\nAbout: ${message.about}\n\n${message.message}\n\nReply to this e-mail to answer ${message.name}. The inbox: ${message.adminUrl}\n`,
    html: renderEmail(
      <OwnerEmail
        storeName={storeName}
        paragraphs={[
          `${what} from ${from}`,
          `About: ${message.about}`,
          message.message,
          `Reply to this e-mail to answer ${message.name}.`,
        ]}
        link={{ url: message.adminUrl, label: "Open the inbox" }}
      />,
    ),
  };
}

/** One thing running low: a key pool today; a stock count of physical goods can be another source. */
export type LowStockItem = { source: "keys" | "stock"; name: string; left: number; adminUrl: string };

/** What is left of one thing running low, in words: "no licence keys left", "1 left in stock", "out of stock". */
export function lowStockLeft({ source, left }: Pick<LowStockItem, "source" | "left">): string {
  if (source === "keys")
    return left === 0 ? "no licence keys left" : `${left} licence key${left === 1 ? "" : "s"} left`;
  return left === 0 ? "out of stock" : `${left} left in stock`;
}

const products = (n: number) => `${n} product${n === 1 ? "" : "s"}`;

export function ownerLowStockEmail(storeName: string, to: string, items: LowStockItem[], threshold: number) {
  const out = items.filter((item) => item.left === 0).length;
  const low = items.length - out;
  const intro = `${[
    out > 0 ? `${products(out)} ${out === 1 ? "has" : "have"} none left` : "",
    low > 0 ? `${products(low)} ${low === 1 ? "is" : "are"} running low` : "",
  ]
    .filter(Boolean)
    .join(" and ")} (your low-stock threshold is ${threshold}).`;
  const outro = "Top each one up from its page in the admin.";
  const list = items.map((item) => `${item.name}: ${lowStockLeft(item)}\n${item.adminUrl}`).join("\n\n");
  return {
    kind: "owner-low-stock",
    to,
    subject: `${out > 0 ? "Out of stock or running low" : "Running low"}: ${products(items.length)}`,
    text: `${intro}\n\n${list}\n\n${outro}\n`,
    html: renderEmail(
      <OwnerEmail storeName={storeName} paragraphs={[intro]}>
        <ul style={{ paddingLeft: 20 }}>
          {items.map((item, index) => (
            <li key={index}>
              <a href={item.adminUrl}>{item.name}</a>: {lowStockLeft(item)}
            </li>
          ))}
        </ul>
        <p>{outro}</p>
      </OwnerEmail>,
    ),
  };
}
