import { formatCount } from "~/lib/money";
import { TextAreaField, TextField } from "~/ui/field";
import { CONTACT_LIMITS, type ContactField, contactSchema, type FormFeedback } from "../schemas";
import { InquiryForm, useInquiryForm } from "./inquiry-form";

export function ContactForm({ feedback }: { feedback?: FormFeedback<ContactField> }) {
  const form = useInquiryForm(contactSchema, feedback);
  const { field } = form;
  return (
    <InquiryForm
      form={form}
      labelledBy="contact-form-heading"
      testId="contact-form"
      privacyNote="We use your details only to answer you."
      submitLabel="Send message"
    >
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
        hint={`${CONTACT_LIMITS.messageMin} to ${formatCount(CONTACT_LIMITS.messageMax)} characters.`}
        {...field("message")}
      />
    </InquiryForm>
  );
}
