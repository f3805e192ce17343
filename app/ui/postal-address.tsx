import { Fragment } from "react";
import { addressLines, type PostalAddress as Address } from "~/lib/address";

/**
 * An address as every page shows it: the name (bold when `strongName`), the lines of lib/address.ts (the same as the
 * e-mails and invoices print) and, when given, the phone number.
 */
export function PostalAddress({
  address,
  name,
  phone,
  strongName = false,
  className = "not-italic",
  testId,
}: {
  address: Address;
  name?: string;
  phone?: string;
  strongName?: boolean;
  className?: string;
  testId?: string;
}) {
  const lines = addressLines(address);
  return (
    <address className={className} data-testid={testId}>
      {name ? strongName ? <span className="font-semibold text-ink-900">{name}</span> : name : null}
      {[...lines, ...(phone ? [phone] : [])].map((line, index) => (
        <Fragment key={index}>
          {index > 0 || name ? <br /> : null}
          {line}
        </Fragment>
      ))}
    </address>
  );
}
