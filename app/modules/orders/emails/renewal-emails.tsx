import { EmailLayout, FINE_PRINT, renderEmail } from "~/modules/email/layout";
import { longDate } from "../labels";

/** One key's renewal reminder: what it is for, when it ends, and the two links it carries. */
export type RenewalReminder = {
  to: string;
  storeName: string;
  productName: string;
  variantLabel: string | null;
  hint: string;
  orderNumber: number;
  /** ISO time the key stops working. */
  expiresAt: string;
  /** Whole UTC days from today to the day it expires (0: today). */
  daysLeft: number;
  /** The product page with the same variant chosen; null when the store no longer sells it. */
  renewLink: string | null;
  /** The signed-in customer's licences page, for a key of an account; null for a guest's. */
  licencesLink: string | null;
  unsubscribeLink: string;
  supportEmail: string;
};

/** "expires on 29 December 2026, in 30 days", "expires tomorrow, 29 December 2026", "expires today". */
function expiresInText(expiresAt: string, daysLeft: number): string {
  if (daysLeft <= 0) return "expires today";
  if (daysLeft === 1) return `expires tomorrow, ${longDate(expiresAt)}`;
  return `expires on ${longDate(expiresAt)}, in ${daysLeft} days`;
}

const fullName = (reminder: Pick<RenewalReminder, "productName" | "variantLabel">) =>
  reminder.variantLabel ? `${reminder.productName} (${reminder.variantLabel})` : reminder.productName;

/**
 * The reminder e-mail, with the headers of a one-click unsubscribe (RFC 8058): a mail program's "Unsubscribe" posts
 * `List-Unsubscribe=One-Click` to the link, which needs no sign-in.
 */
export function renewalReminderEmail(reminder: RenewalReminder) {
  const name = fullName(reminder);
  const when = expiresInText(reminder.expiresAt, reminder.daysLeft);
  const subject =
    reminder.daysLeft <= 0
      ? `Your ${reminder.productName} licence expires today`
      : `Your ${reminder.productName} licence expires in ${reminder.daysLeft} day${reminder.daysLeft === 1 ? "" : "s"}`;
  const intro = `Your licence key for ${name} (${reminder.hint}, order #${reminder.orderNumber}) ${when}.`;
  const renew = reminder.renewLink
    ? "Renew it to keep it working: the same product and term, ready to add to your cart."
    : `${name} is no longer sold as it was. Reply to this e-mail${reminder.supportEmail ? ` or write to ${reminder.supportEmail}` : ""} and we will help you choose what replaces it.`;
  const why = `You get this e-mail because you bought this licence from ${reminder.storeName}.`;
  const text = [
    intro,
    renew,
    ...(reminder.renewLink ? [`Renew: ${reminder.renewLink}`] : []),
    ...(reminder.licencesLink ? [`Your licences: ${reminder.licencesLink}`] : []),
    `${why} No more renewal reminders: ${reminder.unsubscribeLink}`,
  ].join("\n\n");
  const html = renderEmail(
    <EmailLayout heading={`${reminder.storeName}: renewal reminder`}>
      <p>{intro}</p>
      <p>{renew}</p>
      {reminder.renewLink ? (
        <p>
          <a
            href={reminder.renewLink}
            style={{
              background: "#1d4ed8",
              color: "#ffffff",
              padding: "8px 16px",
              borderRadius: 6,
              textDecoration: "none",
              fontWeight: 600,
            }}
          >
            Renew {name}
          </a>
        </p>
      ) : null}
      {reminder.licencesLink ? (
        <p>
          <a href={reminder.licencesLink}>See all your licences</a>
        </p>
      ) : null}
      <p style={FINE_PRINT}>
        {why} <a href={reminder.unsubscribeLink}>Unsubscribe from renewal reminders</a>
      </p>
    </EmailLayout>,
  );
  return {
    kind: "renewal-reminder",
    to: reminder.to,
    subject,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${reminder.unsubscribeLink}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
