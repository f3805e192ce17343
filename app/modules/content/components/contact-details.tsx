import type { ContactDetails as Details } from "../company.server";

/** The block's icons (outlines in the brand's colour, beside their line), each drawn with one or more strokes. */
const ICON_STROKES = {
  phone: [
    "M2.25 6.75c0 8.28 6.72 15 15 15h2.25a2.25 2.25 0 0 0 2.25-2.25v-1.37c0-.52-.35-.97-.85-1.09l-4.42-1.1c-.44-.11-.9.05-1.17.41l-.97 1.29a1.13 1.13 0 0 1-1.21.38 12.04 12.04 0 0 1-7.14-7.14 1.13 1.13 0 0 1 .38-1.21l1.29-.97c.36-.27.52-.73.41-1.17l-1.1-4.42A1.13 1.13 0 0 0 6.12 2.25H4.5A2.25 2.25 0 0 0 2.25 4.5v2.25Z",
  ],
  mail: [
    "M21.75 6.75v10.5a2.25 2.25 0 0 1-2.25 2.25h-15a2.25 2.25 0 0 1-2.25-2.25V6.75m19.5 0A2.25 2.25 0 0 0 19.5 4.5h-15a2.25 2.25 0 0 0-2.25 2.25m19.5 0-8.58 5.49a2.25 2.25 0 0 1-2.34 0L2.25 6.75",
  ],
  pin: [
    "M15 10.5a3 3 0 1 1-6 0 3 3 0 0 1 6 0Z",
    "M19.5 10.5c0 7.14-7.5 11.25-7.5 11.25S4.5 17.64 4.5 10.5a7.5 7.5 0 1 1 15 0Z",
  ],
};

function LineIcon({ name }: { name: keyof typeof ICON_STROKES }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      className="mt-0.5 h-5 w-5 shrink-0 text-brand-600"
    >
      {ICON_STROKES[name].map((stroke) => (
        <path key={stroke} strokeLinecap="round" strokeLinejoin="round" d={stroke} />
      ))}
    </svg>
  );
}

/** A way to reach the store: its icon, what it is, and the link that uses it. `long` text may break anywhere. */
function ContactLine({
  icon,
  label,
  href,
  testId,
  long = false,
  children,
}: {
  icon: keyof typeof ICON_STROKES;
  label: string;
  href: string;
  testId: string;
  long?: boolean;
  children: string;
}) {
  return (
    <li className="flex gap-3">
      <LineIcon name={icon} />
      <div className={long ? "min-w-0" : undefined}>
        <span className="block text-xs font-medium uppercase tracking-wide text-slate-500">{label}</span>
        <a
          href={href}
          className={`${long ? "break-words " : ""}text-base font-semibold text-ink-900 hover:text-brand-700`}
          data-testid={testId}
        >
          {children}
        </a>
      </div>
    </li>
  );
}

/**
 * The store's phone (local format, dialled in the international one), e-mail and both offices.
 * `headingLevel` keeps the page's headings in order wherever the block sits.
 */
export function ContactDetails({
  details,
  title = "Get in touch",
  headingLevel = 2,
}: {
  details: Details;
  title?: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const Sub = headingLevel === 2 ? "h3" : "h4";
  return (
    <section
      aria-labelledby="contact-details-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      data-testid="contact-details"
    >
      <Heading id="contact-details-heading" className="text-lg font-bold text-ink-900">
        {title}
      </Heading>
      <p className="mt-1 text-sm text-slate-600">{details.storeName}</p>
      <ul className="mt-5 space-y-4 text-sm">
        {details.phone.phone ? (
          <ContactLine
            icon="phone"
            label="Phone"
            href={`tel:${details.phone.phonecall}`}
            testId="contact-phone"
          >
            {details.phone.phone}
          </ContactLine>
        ) : null}
        {details.email ? (
          <ContactLine
            icon="mail"
            label="E-mail"
            href={`mailto:${details.email}`}
            testId="contact-email"
            long
          >
            {details.email}
          </ContactLine>
        ) : null}
      </ul>
      {details.offices.length > 0 ? (
        <>
          <Sub className="mt-6 border-t border-slate-200 pt-5 text-sm font-semibold text-ink-900">
            Our offices
          </Sub>
          <ul className="mt-3 space-y-4 text-sm">
            {details.offices.map((office) => (
              <li key={office.label} className="flex gap-3" data-testid="office">
                <LineIcon name="pin" />
                <div>
                  <span className="block font-medium text-ink-800">{office.label}</span>
                  <address className="not-italic leading-6 text-slate-600">{office.address}</address>
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
