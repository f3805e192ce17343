import { data, Link } from "react-router";
import { z } from "zod";
import { getContactDetails } from "~/modules/content/company.server";
import { ContactDetails } from "~/modules/content/components/contact-details";
import { Markdown } from "~/modules/content/components/markdown";
import { getPage, updatedOn } from "~/modules/content/pages.server";
import { storeFacts, withStoreFacts } from "~/modules/content/store-facts.server";
import { ShippingAtAGlance } from "~/modules/orders/components/shipping-at-a-glance";
import { getSettings } from "~/modules/orders/settings.server";
import { COUNTRIES } from "~/lib/address";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import { ButtonLink } from "~/ui/button";
import { PageHeader } from "~/ui/page-header";
import { INFORMATION_LINKS } from "~/modules/content/information-links";
import type { Route } from "./+types/content-page";

/** The page's slug is its path: /About and /about/ are /about. */
const slugFromPath = z
  .string()
  .transform((pathname) => pathname.replace(/^\/+|\/+$/g, "").toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/));

export async function loader({ context, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const slug = slugFromPath.safeParse(pathname);
  const page = slug.success
    ? await fromSnapshot(context, `page:${slug.data}`, () => getPage(context, slug.data))
    : null;
  if (!page) throw data(null, { status: 404 });
  const path = `/${page.slug}`;
  const facts = await storeFacts(context);
  const title = withStoreFacts(page.title, facts);
  const body = withStoreFacts(page.body, facts);
  const [contact, seo, store] = await Promise.all([
    page.slug === "about" ? getContactDetails(context) : null,
    seoForPath(context, pathname, {
      page: { title, description: body },
      canonicalPath: path,
    }),
    // The shipping policy states the settings checkout uses, so the page never contradicts checkout.
    page.slug === "shipping-policy" ? fromSnapshot(context, "settings", () => getSettings(context.db)) : null,
  ]);
  return {
    page: {
      slug: page.slug,
      title,
      body,
      updatedAt: page.updatedAt.toISOString(),
      updatedOn: updatedOn(page.updatedAt),
    },
    contact,
    seo,
    shipping: store
      ? {
          flatCents: store.shippingFlatCents,
          freeFromCents: store.freeShippingThresholdCents,
          countries: store.shipsTo.map((code) => COUNTRIES[code] ?? code),
        }
      : null,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { page, contact, shipping } = loaderData;
  const path = `/${page.slug}`;
  return (
    <div data-testid="content-page" data-slug={page.slug}>
      <PageHeader title={page.title} crumbs={[{ to: path, label: page.title }]} />
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-12">
        <article
          className="min-w-0 max-w-4xl rounded-2xl border border-slate-200 bg-white px-5 py-6 shadow-sm sm:px-10 sm:py-10"
          data-testid="page-body"
        >
          <p className="mb-8 border-b border-slate-200 pb-4 text-sm text-slate-600">
            Last updated{" "}
            <time dateTime={page.updatedAt} data-testid="last-updated" className="font-medium text-ink-800">
              {page.updatedOn}
            </time>
          </p>
          {shipping ? <ShippingAtAGlance {...shipping} /> : null}
          <Markdown>{page.body}</Markdown>
        </article>
        <aside className="space-y-6 lg:sticky lg:top-6 lg:self-start">
          {contact ? (
            <>
              <ContactDetails details={contact} title="Contact us" />
              <ButtonLink to="/contact" variant="dark" className="w-full">
                Send us a message
              </ButtonLink>
            </>
          ) : (
            <nav
              aria-labelledby="related-heading"
              className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <h2
                id="related-heading"
                className="text-sm font-semibold uppercase tracking-wide text-slate-600"
              >
                Store information
              </h2>
              <ul className="mt-3 space-y-1 text-sm">
                {INFORMATION_LINKS.map((link) => (
                  <li key={link.to}>
                    <Link
                      to={link.to}
                      aria-current={link.to === path ? "page" : undefined}
                      className={`block rounded-md px-3 py-2 ${
                        link.to === path
                          ? "bg-brand-50 font-semibold text-brand-800"
                          : "text-ink-800 hover:bg-slate-50 hover:text-brand-700"
                      }`}
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </aside>
      </div>
    </div>
  );
}
