import { type Currency, formatMoney } from "~/lib/money";
import { DOCUMENT_TITLES, type DocumentEntry } from "../invoice-document";

const printDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" });

/**
 * An order's invoice and credit notes, each a PDF download. A paid order without its invoice (paid before invoices
 * existed) offers it too: downloading it issues it. `href` makes a document's address from its file name.
 */
export function OrderDocuments({
  documents,
  invoiceDue,
  pendingLabel = "Invoice",
  href,
  className = "",
  currency,
}: {
  documents: DocumentEntry[];
  invoiceDue: boolean;
  /** What the invoice not issued yet is called. */
  pendingLabel?: string;
  href: (file: string) => string;
  /** The order's currency, what the documents' totals are in. */
  currency: Currency;
  className?: string;
}) {
  const hasInvoice = documents.some((document) => document.kind === "invoice");
  if (documents.length === 0 && !invoiceDue) return null;
  return (
    <ul className={`divide-y divide-slate-100 text-sm ${className}`} data-testid="order-documents">
      {!hasInvoice && invoiceDue ? (
        <li className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="order-document">
          <span className="font-semibold">{pendingLabel}</span>
          <a
            href={href("invoice.pdf")}
            download
            className="font-semibold text-brand-700 hover:underline"
            aria-label="Download the invoice (PDF)"
          >
            Download PDF
          </a>
        </li>
      ) : null}
      {documents.map((document) => (
        <li
          key={document.number}
          className="flex flex-wrap items-center justify-between gap-2 py-2"
          data-testid="order-document"
          data-kind={document.kind}
        >
          <span>
            <span className="font-semibold">
              {DOCUMENT_TITLES[document.kind]} {document.number}
            </span>{" "}
            <span className="text-slate-600">
              · {printDate(document.issuedAt)} · {formatMoney(document.totalCents, currency)}
            </span>
          </span>
          <a
            href={href(document.kind === "invoice" ? "invoice.pdf" : document.filename)}
            download={document.filename}
            className="font-semibold text-brand-700 hover:underline"
            aria-label={`Download ${DOCUMENT_TITLES[document.kind].toLowerCase()} ${document.number} (PDF)`}
          >
            Download PDF
          </a>
        </li>
      ))}
    </ul>
  );
}
