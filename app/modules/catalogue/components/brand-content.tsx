import type { BrandContentData, BrandSummary } from "../catalogue.server";
import { SECTIONS } from "../sections";
import { type BreadcrumbItem, Breadcrumbs } from "./breadcrumbs";
import { ResellerNotice } from "./reseller-notice";
import { Icon } from "~/ui/icon";

/** "+1 (212) 555-0114" -> "tel:+12125550114". */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

/** The brand's support lines, each a link: the phone number stands out, the longer ones may break anywhere. */
const supportLinks = (contact: BrandContentData["contact"]) => [
  {
    term: "Phone",
    href: telHref(contact.supportPhone),
    text: contact.supportPhone,
    className: "text-base font-semibold text-ink-900 hover:text-brand-700",
    testId: "support-phone",
    external: false,
  },
  {
    term: "E-mail",
    href: `mailto:${contact.supportEmail}`,
    text: contact.supportEmail,
    className: "break-all font-semibold text-ink-900 hover:text-brand-700",
    testId: "support-email",
    external: false,
  },
  {
    term: "Help centre",
    href: contact.website,
    text: contact.website.replace(/^https?:\/\//, ""),
    className: "break-all font-semibold text-ink-900 hover:text-brand-700",
    testId: "support-website",
    external: true,
  },
];

function SectionHeading({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <h2 id={id} className="text-2xl font-bold tracking-tight text-ink-900">
      {children}
    </h2>
  );
}

/**
 * A brand's support content: banner and title, why-choose text, contact block, three benefits, features and
 * testimonials, always with the independent-reseller notice. The brand page puts its products in `products`;
 * the support page leaves it out.
 */
export function BrandContent({
  brand,
  content,
  crumbs,
  products,
  aside,
}: {
  brand: BrandSummary;
  content: BrandContentData;
  crumbs: BreadcrumbItem[];
  /** The brand's product grid, shown right under the banner. */
  products?: React.ReactNode;
  /** A line under the title (a link to the shop or to the support page). */
  aside?: React.ReactNode;
}) {
  const { contact } = content;
  return (
    <div data-testid="brand-content">
      <section
        className="relative isolate overflow-hidden bg-ink-900"
        aria-labelledby="brand-title"
        data-testid="brand-hero"
      >
        <img
          src={content.bannerImg}
          alt=""
          width={1600}
          height={500}
          className="absolute inset-0 -z-20 h-full w-full object-cover"
          data-testid="brand-banner"
        />
        <div className="absolute inset-0 -z-10 bg-gradient-to-r from-ink-900/85 via-ink-900/60 to-ink-900/20" />
        <div className="mx-auto max-w-7xl px-4 py-10 sm:py-14">
          <Breadcrumbs items={crumbs} tone="dark" />
          <div className="mt-6 flex flex-col gap-5 sm:flex-row sm:items-center sm:gap-8">
            <div className="w-fit shrink-0 rounded-2xl bg-white/95 p-2 shadow-lg">
              <img
                src={content.logo}
                alt={`${brand.name} logo`}
                width={320}
                height={120}
                className="h-14 w-auto sm:h-20"
                data-testid="brand-logo"
              />
            </div>
            <div>
              <p className="text-sm font-semibold uppercase tracking-wide text-brand-300">
                {SECTIONS[brand.section].label}
              </p>
              <h1
                id="brand-title"
                className="mt-1 text-3xl font-extrabold tracking-tight text-white sm:text-4xl"
                data-testid="brand-title"
              >
                {content.title}
              </h1>
              {aside ? <div className="mt-3 text-slate-100">{aside}</div> : null}
            </div>
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-7xl space-y-14 px-4 pt-8">
        <ResellerNotice brandName={brand.name} owner={brand.owner} officialWebsite={brand.officialWebsite} />

        {products}

        <div className="grid gap-8 lg:grid-cols-3">
          <section aria-labelledby="why-choose-heading" className="lg:col-span-2" data-testid="why-choose">
            <SectionHeading id="why-choose-heading">Why choose {brand.name}</SectionHeading>
            <p className="mt-4 max-w-prose leading-relaxed text-slate-700">{content.whyChoose}</p>
          </section>
          <section
            aria-labelledby="contact-heading"
            className="h-fit rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            data-testid="brand-contact"
          >
            <h2 id="contact-heading" className="text-lg font-bold text-ink-900">
              Need help with {brand.name}?
            </h2>
            <p className="mt-1 text-sm text-slate-600">Our support team answers by phone and e-mail.</p>
            <dl className="mt-4 space-y-3 text-sm">
              {supportLinks(contact).map((link) => (
                <div key={link.term}>
                  <dt className="font-medium text-slate-500">{link.term}</dt>
                  <dd>
                    <a
                      href={link.href}
                      {...(link.external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
                      className={link.className}
                      data-testid={link.testId}
                    >
                      {link.text}
                      {link.external ? <span className="sr-only"> (opens in a new tab)</span> : null}
                    </a>
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        </div>

        <section aria-labelledby="benefits-heading">
          <SectionHeading id="benefits-heading">Why buy from us</SectionHeading>
          <ul className="mt-6 grid gap-6 md:grid-cols-3">
            {content.benefits.map((benefit) => (
              <li
                key={benefit.title}
                className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
                data-testid="brand-benefit"
              >
                <img src={benefit.icon} alt="" width={96} height={96} loading="lazy" className="h-12 w-12" />
                <h3 className="mt-4 font-semibold text-ink-900">{benefit.title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-600">{benefit.desc}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="features-heading" data-testid="brand-features">
          <SectionHeading id="features-heading">Features</SectionHeading>
          <ul className="mt-6 grid gap-x-8 gap-y-3 sm:grid-cols-2">
            {content.features.map((feature) => (
              <li key={feature} className="flex gap-3 text-slate-700">
                <Icon name="check" className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
                <span>{feature}</span>
              </li>
            ))}
          </ul>
        </section>

        {content.testimonials.length > 0 ? (
          <section aria-labelledby="testimonials-heading" data-testid="brand-testimonials">
            <div className="flex flex-wrap items-center gap-3">
              <SectionHeading id="testimonials-heading">What customers say</SectionHeading>
              {content.sample ? (
                <span
                  className="rounded-full border border-amber-300 bg-amber-50 px-3 py-1 text-xs font-semibold text-amber-900"
                  data-testid="sample-reviews"
                >
                  Sample reviews
                </span>
              ) : null}
            </div>
            {content.sample ? (
              <p className="mt-2 text-sm text-slate-500">
                These reviews are sample content of the demo store, not statements of real customers.
              </p>
            ) : null}
            <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {content.testimonials.map((testimonial) => (
                <li key={`${testimonial.author}-${testimonial.quote}`}>
                  <figure
                    className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
                    data-testid="testimonial"
                  >
                    <blockquote className="flex-1 leading-relaxed text-slate-700">
                      <p>“{testimonial.quote}”</p>
                    </blockquote>
                    <figcaption className="mt-4 text-sm font-semibold text-ink-900">
                      — {testimonial.author}
                    </figcaption>
                  </figure>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </div>
  );
}
