import { type MouseEvent, useState } from "react";
import { data, redirect } from "react-router";
import { z } from "zod";
import { clientAddress } from "~/lib/client-address";
import { readFormBody } from "~/lib/form-data.server";
import { headersWithRetryAfter } from "~/lib/limit-headers";
import { retryAfterHeaders } from "~/lib/rate-limit.server";
import { usePrice } from "~/lib/currency-context";
import { SentNotice } from "~/modules/content/components/inquiry-form";
import { Markdown } from "~/modules/content/components/markdown";
import { QuoteForm } from "~/modules/content/components/quote-form";
import { ServiceIcon } from "~/modules/content/components/service-icon";
import { submitQuoteRequest } from "~/modules/content/messages.server";
import { notifyOwnerOfMessage } from "~/modules/orders/owner-notifications.server";
import type { FormFeedback, InquiryRefusal, QuoteField } from "~/modules/content/schemas";
import { refusal } from "~/lib/action-reply";
import { getService, type Service } from "~/modules/content/services.server";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/digital-service";

/** A service slug (/digital/Web-Development is /digital/web-development); anything else is no service. */
const serviceSlug = z
  .string()
  .toLowerCase()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/);

/** The service a path names, or 404; the page reads it from the public data snapshot, a quote request does not. */
async function findService(
  context: Route.LoaderArgs["context"],
  param: string | undefined,
  { snapshot = false } = {},
) {
  const slug = serviceSlug.safeParse(param);
  const read = (slugText: string) => getService(context, slugText);
  const service = !slug.success
    ? null
    : snapshot
      ? await fromSnapshot(context, `service:${slug.data}`, () => read(slug.data))
      : await read(slug.data);
  if (!service) throw data(null, { status: 404 });
  return service;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const service = await findService(context, params.service, { snapshot: true });
  const url = new URL(request.url);
  const seo = await seoForPath(context, url.pathname, {
    page: { title: service.title, description: service.summary },
    canonicalPath: `/digital/${service.slug}`,
  });
  // ?package=Growth preselects a package in the quote form.
  const wanted = url.searchParams.get("package");
  const selected = service.packages.some((pkg) => pkg.name === wanted) ? wanted : null;
  return { service, selected, sent: url.searchParams.get("sent") === "1", seo };
}

export const headers = headersWithRetryAfter;

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ context, request, params }: Route.ActionArgs) {
  const service = await findService(context, params.service);
  const body = await readFormBody(request);
  if (!body.ok) {
    return refusal<InquiryRefusal<QuoteField>>(400, {
      errors: {},
      values: {},
      message: "We could not read your request. Please try again.",
    });
  }
  const result = await submitQuoteRequest(
    context,
    service,
    body.values,
    clientAddress(request),
    (tx, message) => notifyOwnerOfMessage(tx, context.env, message),
  );
  if (result.ok && result.stored) context.mailer.kick();
  if (!result.ok) {
    return refusal<InquiryRefusal<QuoteField>>(
      result.limited ? 429 : 400,
      { errors: result.errors, values: result.values, message: result.limited?.message },
      retryAfterHeaders(result.limited?.retryAfterSeconds),
    );
  }
  if (!result.stored) context.logger.info("quote form: dropped a post that filled in the honeypot");
  // Post/redirect/get: reloading the confirmation does not send the request again.
  return redirect(`/digital/${service.slug}?sent=1#quote`);
}

export default function DigitalService({ loaderData, actionData }: Route.ComponentProps) {
  const { service, selected, sent } = loaderData;
  // A page of its own per service, so a package chosen on one is not carried over to the next.
  return (
    <ServicePage
      key={service.slug}
      service={service}
      selected={actionData?.values.packageName ?? selected ?? ""}
      sent={sent}
      feedback={actionData}
    />
  );
}

function ServicePage({
  service,
  selected,
  sent,
  feedback,
}: {
  service: Service;
  selected: string;
  sent: boolean;
  feedback?: FormFeedback<QuoteField>;
}) {
  const price = usePrice();
  const [packageName, setPackageName] = useState(selected);

  /** Without JavaScript the link jumps to the form; with it, the package is chosen on the way. */
  const choose = (name: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    setPackageName(name);
    const quote = document.getElementById("quote");
    quote?.scrollIntoView({ behavior: "smooth", block: "start" });
    quote?.querySelector<HTMLElement>("select, [data-testid=form-sent]")?.focus({ preventScroll: true });
  };

  return (
    <div data-testid="service-page" data-slug={service.slug}>
      <PageHeader
        title={service.title}
        intro={service.summary}
        crumbs={[
          { to: "/digital", label: "Digital services" },
          { to: `/digital/${service.slug}`, label: service.title },
        ]}
      />

      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-12">
        <article
          className="min-w-0 rounded-2xl border border-slate-200 bg-white px-5 py-6 shadow-sm sm:px-10 sm:py-10"
          data-testid="service-body"
        >
          <Markdown>{service.body}</Markdown>
        </article>
        <aside className="lg:sticky lg:top-6 lg:self-start">
          <div className="rounded-2xl border border-brand-100 bg-brand-50 p-6">
            <ServiceIcon slug={service.slug} className="bg-white" />
            <p className="mt-4 font-semibold text-ink-900">Fixed prices, free quotes</p>
            <p className="mt-1 text-sm leading-6 text-slate-700">
              Pick a package below or tell us what you need. We reply to every request within one business
              day.
            </p>
            <a
              href="#quote"
              onClick={choose(packageName)}
              className="mt-4 inline-flex text-sm font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-700"
            >
              Request a quote
            </a>
          </div>
        </aside>
      </div>

      {service.packages.length > 0 ? (
        <section aria-labelledby="packages-heading" className="mx-auto max-w-7xl px-4 pb-4">
          <h2 id="packages-heading" className="text-2xl font-bold tracking-tight text-ink-900">
            Packages
          </h2>
          <p className="mt-1 text-slate-600">
            Prices are one-off fees in US dollars unless stated otherwise.
          </p>
          <ul className="mt-6 grid gap-6 md:grid-cols-2 xl:grid-cols-3" data-testid="package-list">
            {service.packages.map((pkg) => (
              <li
                key={pkg.name}
                className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
                data-testid="package"
              >
                <h3 className="text-lg font-bold text-ink-900">{pkg.name}</h3>
                <p
                  className="mt-2 text-3xl font-extrabold tracking-tight text-ink-900"
                  data-testid="package-price"
                >
                  {price(pkg.priceCents)}
                </p>
                <p className="mt-3 text-sm leading-6 text-slate-600 xl:min-h-12">{pkg.description}</p>
                <ul className="mt-5 flex-1 space-y-2.5 border-t border-slate-100 pt-5 text-sm text-ink-800">
                  {pkg.features.map((feature) => (
                    <li key={feature} className="flex gap-2.5">
                      <svg
                        aria-hidden="true"
                        viewBox="0 0 20 20"
                        fill="currentColor"
                        className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600"
                      >
                        <path
                          fillRule="evenodd"
                          d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
                          clipRule="evenodd"
                        />
                      </svg>
                      <span>{feature}</span>
                    </li>
                  ))}
                </ul>
                <a
                  href="#quote"
                  onClick={choose(pkg.name)}
                  className={`mt-6 inline-flex items-center justify-center rounded-lg px-5 py-2.5 text-sm font-semibold transition ${
                    packageName === pkg.name
                      ? "bg-brand-700 text-white hover:bg-brand-800"
                      : "border border-slate-300 bg-white text-ink-900 hover:bg-slate-50"
                  }`}
                >
                  {packageName === pkg.name ? `${pkg.name} selected` : `Choose ${pkg.name}`}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section
        id="quote"
        aria-labelledby="quote-heading"
        className="mx-auto mt-10 max-w-7xl scroll-mt-6 px-4"
      >
        <div className="grid gap-8 rounded-2xl border border-slate-200 bg-white px-5 py-6 shadow-sm sm:p-10 lg:grid-cols-[18rem_minmax(0,1fr)] lg:gap-12">
          <div>
            <h2 id="quote-heading" className="text-2xl font-bold tracking-tight text-ink-900">
              Request a quote
            </h2>
            <p className="mt-2 text-slate-600">
              Tell us about your project and we will send you a tailored {service.title.toLowerCase()} quote.
            </p>
            <ol className="mt-6 space-y-3 text-sm text-slate-700">
              {[
                "We read your request",
                "We reply within one business day",
                "You get a fixed-price quote",
              ].map((step, index) => (
                <li key={step} className="flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-ink-900 text-xs font-bold text-white"
                  >
                    {index + 1}
                  </span>
                  {step}
                </li>
              ))}
            </ol>
          </div>
          <div>
            {sent ? (
              <SentNotice
                title="Thank you, your quote request has been sent."
                again={{ to: `/digital/${service.slug}`, label: "Request another quote" }}
              >
                We will review it and reply by e-mail, usually within one business day.
              </SentNotice>
            ) : (
              <QuoteForm
                serviceTitle={service.title}
                packages={service.packages}
                packageName={packageName}
                onPackageChange={setPackageName}
                feedback={feedback}
              />
            )}
          </div>
        </div>
      </section>
    </div>
  );
}
