import { Fragment, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/**
 * Every e-mail's page: the store's heading over the message's own content. E-mails are React components rendered to
 * HTML on the server (renderEmail), so what a customer typed is escaped by React, once, like on every page; the text
 * part of each e-mail is written beside its component, from the same strings, and needs no escaping.
 */
export function EmailLayout({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui,sans-serif", color: "#0f172a", maxWidth: 560, margin: "auto" }}>
        <h1 style={{ fontSize: 20 }}>{heading}</h1>
        {children}
      </body>
    </html>
  );
}

/** A line of small grey print under an e-mail's message. */
export const FINE_PRINT = { color: "#475569", fontSize: 13 } as const;

/** Lines of text one under the other (an address, licence keys): each as typed, a line break between them. */
export function LineBreaks({ lines }: { lines: string[] }) {
  return lines.map((line, index) => (
    <Fragment key={index}>
      {index > 0 ? <br /> : null}
      {line}
    </Fragment>
  ));
}

/**
 * An e-mail's HTML part: the component as an HTML document. Line breaks are written as HTML writes them (`<br>`,
 * not React's `<br/>`), as mail programs and the store's e-mails always had them; text never holds a raw `<`, so
 * only a real line break can match.
 */
export function renderEmail(email: ReactNode): string {
  return `<!doctype html>${renderToStaticMarkup(email).replaceAll("<br/>", "<br>")}`;
}
