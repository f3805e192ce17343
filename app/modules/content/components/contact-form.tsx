import { Form, Link } from "react-router";
import { TextAreaField, TextField } from "~/ui/field";
import { CONTACT_LIMITS, type ContactField, contactSchema, type FormFeedback } from "../schemas";
import { FormAlert, Honeypot, SubmitButton, useInquiryForm } from "./inquiry-form";

export function ContactForm({ feedback }: { feedback?: FormFeedback<ContactField> }) {
  const { formRef, formError, onSubmit, submitting, field } = useInquiryForm(contactSchema, feedback);
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
        <TextField label="Your name" autoComplete="name" {...field("name")} />
        <TextField label="E-mail address" type="email" autoComplete="email" {...field("email")} />
        <TextField
          label="Phone (optional)"
          type="tel"
          autoComplete="tel"
          hint="If you would like us to call you back."
          {...field("phone")}
        />
        <TextField
          label="Subject"
          hint="An order number helps us find your order quickly."
          {...field("subject")}
        />
      </div>
      <TextAreaField
        label="Message"
        rows={6}
        minLength={CONTACT_LIMITS.messageMin}
        hint={`${CONTACT_LIMITS.messageMin} to ${CONTACT_LIMITS.messageMax.toLocaleString("en-US")} characters.`}
        {...field("message")}
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
