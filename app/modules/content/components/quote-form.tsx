import { useMemo } from "react";
import { Form, Link } from "react-router";
import { formatMoney } from "~/lib/money";
import { SelectField, TextAreaField, TextField } from "~/ui/field";
import { type FormFeedback, QUOTE_LIMITS, type QuoteField, quoteRequestSchema } from "../schemas";
import { FormAlert, Honeypot, SubmitButton, useInquiryForm } from "./inquiry-form";

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
  const schema = useMemo(() => quoteRequestSchema(packages.map((pkg) => pkg.name)), [packages]);
  const { formRef, errors, formError, onSubmit, submitting, field } = useInquiryForm(schema, feedback);
  return (
    <Form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={onSubmit}
      className="relative space-y-5"
      aria-labelledby="quote-heading"
      data-testid="quote-form"
    >
      <FormAlert message={formError} />
      <p className="text-sm text-slate-600">All fields are required unless marked optional.</p>
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
            {pkg.name} – {formatMoney(pkg.priceCents)}
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
      <Honeypot />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-slate-500">
          Free and without obligation. See our{" "}
          <Link to="/privacypolicy" className="font-medium text-brand-700 underline underline-offset-2">
            privacy policy
          </Link>
          .
        </p>
        <SubmitButton submitting={submitting}>Request a quote</SubmitButton>
      </div>
    </Form>
  );
}
