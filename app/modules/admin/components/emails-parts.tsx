import { Link } from "react-router";
import type { OutboxStatus } from "~db/schema/orders";
import type { EmailRow } from "../emails.server";
import { Panel } from "./admin-page";
import { OpenRecord } from "./list-controls";
import { formatWhen } from "./orders-parts";

export const EMAIL_STATUS_LABELS: Record<OutboxStatus, string> = {
  pending: "Waiting to send",
  stored: "Stored (no SMTP)",
  sent: "Sent",
  failed: "Failed",
};

const STATUS_TONES: Record<OutboxStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  stored: "bg-slate-200 text-slate-800",
  sent: "bg-emerald-100 text-emerald-900",
  failed: "bg-red-100 text-red-900",
};

/** Where an e-mail stands, with its attempts when there were any. */
export function EmailStatusBadge({ status, attempts }: { status: OutboxStatus; attempts: number }) {
  return (
    <span
      data-testid="email-status"
      className={`inline-block whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_TONES[status]}`}
    >
      {EMAIL_STATUS_LABELS[status]}
      {attempts > 0 && status !== "sent" ? ` · ${attempts} ${attempts === 1 ? "attempt" : "attempts"}` : ""}
    </span>
  );
}

/**
 * The policy of the document an e-mail's HTML is shown in: nothing loads, nothing runs (the frame is sandboxed
 * too), only the message's own inline styles and inline images apply.
 */
const EMAIL_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'";

/**
 * An e-mail's HTML part as the customer sees it, in a sandboxed frame of its own: no scripts, no same origin, no
 * forms, no requests, so whatever the message holds cannot touch the admin's page or session.
 */
export function EmailHtmlPreview({ html, subject }: { html: string; subject: string }) {
  const document = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${EMAIL_CSP}"></head><body>${html}</body></html>`;
  return (
    <iframe
      title={`The e-mail “${subject}” as the customer sees it`}
      sandbox=""
      srcDoc={document}
      referrerPolicy="no-referrer"
      data-testid="email-html"
      className="h-[28rem] w-full rounded-xl border border-slate-200 bg-white"
    />
  );
}

/** The e-mails of one order, for the admin's order page; each opens in the outbox. */
export function OrderEmails({ emails }: { emails: EmailRow[] }) {
  return (
    <Panel title="E-mails" testId="order-emails">
      {emails.length === 0 ? (
        <p className="text-sm text-slate-600">No e-mails about this order yet.</p>
      ) : (
        <ul className="-mt-2 divide-y divide-slate-100 text-sm">
          {emails.map((email) => (
            <li
              key={email.id}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
              data-testid="order-email"
            >
              <div className="min-w-0">
                <Link
                  to={`/admin/emails?id=${email.id}`}
                  className="break-words font-semibold text-brand-700 hover:underline"
                >
                  {email.subject}
                </Link>
                <p className="break-all text-xs text-slate-600">
                  To {email.to} · {formatWhen(email.createdAt)}
                </p>
              </div>
              <EmailStatusBadge status={email.status} attempts={email.attempts} />
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

export type OpenEmail = EmailRow & {
  text: string;
  html: string;
  attachments: Array<{ filename: string; href: string | null }>;
};

/** One e-mail: who it went to, where it stands, its HTML and text parts, and the button that sends it again. */
export function EmailDetail({
  email,
  closeTo,
  resend,
}: {
  email: OpenEmail;
  closeTo: string;
  resend: React.ReactNode;
}) {
  const fields: Array<[string, React.ReactNode]> = [
    [
      "To",
      <span key="to" className="break-all">
        {email.to}
      </span>,
    ],
    ["Kind", email.kind],
    [
      "Order",
      email.orderNumber ? (
        <Link key="order" to={`/admin/orders/${email.orderNumber}`} className="text-brand-700 underline">
          #{email.orderNumber}
        </Link>
      ) : (
        "—"
      ),
    ],
    ["Written", formatWhen(email.createdAt)],
    ["Status", <EmailStatusBadge key="status" status={email.status} attempts={email.attempts} />],
    ["Sent", email.sentAt ? formatWhen(email.sentAt) : "—"],
    ...(email.attachments.length > 0
      ? [
          [
            "Attached",
            <ul key="attachments" data-testid="email-attachments">
              {email.attachments.map((attachment) => (
                <li key={attachment.filename}>
                  {attachment.href ? (
                    <a
                      href={attachment.href}
                      download={attachment.filename}
                      className="text-brand-700 underline"
                    >
                      {attachment.filename}
                    </a>
                  ) : (
                    attachment.filename
                  )}
                </li>
              ))}
            </ul>,
          ] as [string, React.ReactNode],
        ]
      : []),
    ...(email.lastError && email.status !== "sent"
      ? [
          [
            "Last error",
            <span key="error" className="break-words text-red-800" data-testid="email-last-error">
              {email.lastError}
            </span>,
          ] as [string, React.ReactNode],
        ]
      : []),
  ];
  return (
    <OpenRecord
      name="email"
      heading={email.subject}
      headingClassName="min-w-0 break-words text-lg font-bold text-ink-900"
      closeTo={closeTo}
      facts={fields}
    >
      <div className="mt-4">{resend}</div>
      <h3 className="mt-5 text-sm font-semibold text-ink-900">As the customer sees it</h3>
      <div className="mt-2">
        <EmailHtmlPreview html={email.html} subject={email.subject} />
      </div>
      <h3 className="mt-5 text-sm font-semibold text-ink-900">Text part</h3>
      {/* Scrollable, so it takes the focus: a keyboard user scrolls a long text with the arrow keys. */}
      <pre
        className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-xl bg-slate-50 p-4 text-sm text-ink-900"
        data-testid="email-text"
        tabIndex={0}
        aria-label="Text part of the e-mail"
      >
        {email.text}
      </pre>
    </OpenRecord>
  );
}
