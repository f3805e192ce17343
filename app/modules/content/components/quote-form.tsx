import { useMemo } from "react";
import { usePrice } from "~/lib/currency-context";
import { SelectField, TextAreaField, TextField } from "~/ui/field";
import { type FormFeedback, QUOTE_LIMITS, type QuoteField, quoteRequestSchema } from "../schemas";
import { InquiryForm, useInquiryForm } from "./inquiry-form";

type PackageOption = { name: string; priceCents: number };

/** The quote request of a service page. The package choice is the page's, so the package cards can set it. */
export function QuoteForm({
  serviceTitle,
  packages,
  packageName,
  onPackageChange,
  feedback,
}: {
  serviceTitle: string;
  packages: PackageOption[];
  packageName: string;
  onPackageChange: (name: string) => void;
  feedback?: FormFeedback<QuoteField>;
}) {
  const price = usePrice();
  const schema = useMemo(() => quoteRequestSchema(packages.map((pkg) => pkg.name)), [packages]);
  const form = useInquiryForm(schema, feedback);
  const { errors, field } = form;
  return (
    <InquiryForm
      form={form}
      labelledBy="quote-heading"
      testId="quote-form"
      privacyNote="Free and without obligation."
      submitLabel="Request a quote"
    >
      <SelectField
        label="Package"
        name="packageName"
        value={packageName}
        onChange={(event) => onPackageChange(event.currentTarget.value)}
        error={errors.packageName}
        hint={`Choose a ${serviceTitle.toLowerCase()} package, or let us recommend one.`}
      >
        <option value="">Not sure yet – help me choose</option>
        {packages.map((pkg) => (
          <option key={pkg.name} value={pkg.name}>
            {pkg.name} – {price(pkg.priceCents)}
          </option>
        ))}
      </SelectField>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Your name" autoComplete="name" {...field("name")} />
        <TextField label="E-mail address" type="email" autoComplete="email" {...field("email")} />
        <TextField label="Phone (optional)" type="tel" autoComplete="tel" {...field("phone")} />
        <TextField label="Company (optional)" autoComplete="organization" {...field("company")} />
      </div>
      <TextAreaField
        label="About your project"
        rows={6}
        minLength={QUOTE_LIMITS.messageMin}
        hint="Your goals, timing and budget help us send an accurate quote."
        {...field("message")}
      />
    </InquiryForm>
  );
}
