import { redirect } from "react-router";
import { clientAddress } from "~/lib/client-address";
import { readFormBody } from "~/lib/form-data.server";
import { headersWithRetryAfter } from "~/lib/limit-headers";
import { retryAfterHeaders } from "~/lib/rate-limit.server";
import { getContactDetails } from "~/modules/content/company.server";
import { ContactDetails } from "~/modules/content/components/contact-details";
import { ContactForm } from "~/modules/content/components/contact-form";
import { SentNotice } from "~/modules/content/components/inquiry-form";
import { submitContactMessage } from "~/modules/content/messages.server";
import { notifyOwnerOfMessage } from "~/modules/orders/owner-notifications.server";
import type { ContactField, InquiryRefusal } from "~/modules/content/schemas";
import { refusal } from "~/lib/action-reply";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/contact";

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const [contact, seo] = await Promise.all([
    getContactDetails(context),
    seoForPath(context, url.pathname, {
      page: {
        title: "Contact us",
        description: "Questions about an order, a licence key or a product? Write to us or call us.",
      },
      canonicalPath: "/contact",
    }),
  ]);
  return { contact, sent: url.searchParams.get("sent") === "1", seo };
}

export const headers = headersWithRetryAfter;

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ context, request }: Route.ActionArgs) {
  const body = await readFormBody(request);
  if (!body.ok) {
    return refusal<InquiryRefusal<ContactField>>(400, {
      errors: {},
      values: {},
      message: "We could not read your message. Please try again.",
    });
  }
  const result = await submitContactMessage(context, body.values, clientAddress(request), (tx, message) =>
    notifyOwnerOfMessage(tx, context.env, message),
  );
  if (result.ok && result.stored) context.mailer.kick();
  if (!result.ok) {
    return refusal<InquiryRefusal<ContactField>>(
      result.limited ? 429 : 400,
      { errors: result.errors, values: result.values, message: result.limited?.message },
      retryAfterHeaders(result.limited?.retryAfterSeconds),
    );
  }
  if (!result.stored) context.logger.info("contact form: dropped a post that filled in the honeypot");
  // Post/redirect/get: reloading the confirmation does not send the message again.
  return redirect("/contact?sent=1#message");
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { contact, sent } = loaderData;
  return (
    <div>
      <PageHeader
        title="Contact us"
        intro="Questions about an order, a licence key, shipping or a return? Call us, e-mail us or send a message and our team will get back to you within one business day."
        crumbs={[{ to: "/contact", label: "Contact us" }]}
      />
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 lg:grid-cols-[20rem_minmax(0,1fr)] lg:gap-12">
        <div>
          <ContactDetails details={contact} />
        </div>
        <section
          id="message"
          aria-labelledby="contact-form-heading"
          className="scroll-mt-6 rounded-2xl border border-slate-200 bg-white px-5 py-6 shadow-sm sm:p-8"
        >
          <h2 id="contact-form-heading" className="text-xl font-bold text-ink-900">
            Send us a message
          </h2>
          <div className="mt-5">
            {sent ? (
              <SentNotice
                title="Thank you, your message has been sent."
                again={{ to: "/contact", label: "Send another message" }}
              >
                We have received it and will reply by e-mail, usually within one business day.
              </SentNotice>
            ) : (
              <ContactForm feedback={actionData} />
            )}
          </div>
        </section>
      </div>
    </div>
  );
}
