import { Form, Link } from "react-router";
import { TextAreaField, TextField } from "~/ui/field";
import { CONTACT_LIMITS, type ContactField, contactSchema, type FormFeedback } from "../schemas";
import { FormAlert, Honeypot, SubmitButton, useInquiryForm } from "./inquiry-form";

export function ContactForm({ feedback }: { feedback?: FormFeedback<ContactField> }) {
  const { formRef, errors, values, formError, onSubmit, submitting } = useInquiryForm(
    contactSchema,
    feedback,
  );
  return (
    <Form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={onSubmit}
      className="relative space-y-5"
      aria-labelledby="contact-form-heading"
      data-testid="contact-form"
    >
      <FormAlert message={formError} />
      <p className="text-sm text-slate-600">All fields are required unless marked optional.</p>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Your name"
          name="name"
          autoComplete="name"
          required
          maxLength={CONTACT_LIMITS.name}
          defaultValue={values.name}
          error={errors.name}
        />
        <TextField
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={CONTACT_LIMITS.email}
          defaultValue={values.email}
          error={errors.email}
        />
        <TextField
          label="Phone (optional)"
          name="phone"
          type="tel"
          autoComplete="tel"
          maxLength={CONTACT_LIMITS.phone}
          defaultValue={values.phone}
          error={errors.phone}
          hint="If you would like us to call you back."
        />
        <TextField
          label="Subject"
          name="subject"
          required
          maxLength={CONTACT_LIMITS.subject}
          defaultValue={values.subject}
          error={errors.subject}
          hint="An order number helps us find your order quickly."
        />
      </div>
      <TextAreaField
        label="Message"
        name="message"
        rows={6}
        required
        minLength={CONTACT_LIMITS.messageMin}
        maxLength={CONTACT_LIMITS.messageMax}
        defaultValue={values.message}
        error={errors.message}
        hint={`${CONTACT_LIMITS.messageMin} to ${CONTACT_LIMITS.messageMax.toLocaleString("en-US")} characters.`}
      />
      <Honeypot />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-slate-500">
          We use your details only to answer you. See our{" "}
          <Link to="/privacypolicy" className="font-medium text-brand-700 underline underline-offset-2">
            privacy policy
          </Link>
          .
        </p>
        <SubmitButton submitting={submitting}>Send message</SubmitButton>
      </div>
    </Form>
  );
}
