import { Link } from "react-router";
import { usePrice } from "~/lib/currency-context";
import { ServiceIcon } from "~/modules/content/components/service-icon";
import { listServices } from "~/modules/content/services.server";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import { ButtonLink } from "~/ui/button";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/digital";

const PAGE = {
  title: "Digital services",
  description:
    "Marketing, websites, content and apps for small businesses: clear packages at fixed prices, and a free quote for anything in between.",
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const [services, seo] = await Promise.all([
    fromSnapshot(context, "services", () => listServices(context)),
    seoForPath(context, new URL(request.url).pathname, { page: PAGE, canonicalPath: "/digital" }),
  ]);
  return { services, seo };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Digital({ loaderData }: Route.ComponentProps) {
  const price = usePrice();
  const { services } = loaderData;
  return (
    <div>
      <PageHeader
        title={PAGE.title}
        intro={PAGE.description}
        crumbs={[{ to: "/digital", label: "Digital services" }]}
      />
      <section aria-labelledby="services-heading" className="mx-auto max-w-7xl px-4 py-10">
        <h2 id="services-heading" className="sr-only">
          Our services
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2" data-testid="service-list">
          {services.map((service) => (
            <li key={service.slug} className="flex">
              <Link
                to={`/digital/${service.slug}`}
                className="group flex w-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:border-brand-300 hover:shadow-md sm:p-8"
                data-testid="service-card"
              >
                <ServiceIcon slug={service.slug} />
                <h3 className="mt-5 text-xl font-bold text-ink-900 group-hover:text-brand-700">
                  {service.title}
                </h3>
                <p className="mt-2 flex-1 leading-7 text-slate-600">{service.summary}</p>
                <div className="mt-6 flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
                  {service.fromPriceCents !== null ? (
                    <p className="text-sm text-slate-600">
                      {service.packageCount === 1 ? "1 package" : `${service.packageCount} packages`} from{" "}
                      <span className="font-semibold text-ink-900">{price(service.fromPriceCents)}</span>
                    </p>
                  ) : (
                    <p className="text-sm text-slate-600">Priced on request</p>
                  )}
                  <span className="text-sm font-semibold text-brand-700" aria-hidden="true">
                    View packages →
                  </span>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section className="mx-auto max-w-7xl px-4">
        <div className="flex flex-col items-start gap-4 rounded-2xl bg-ink-900 px-6 py-8 text-white sm:flex-row sm:items-center sm:justify-between sm:px-10">
          <div>
            <h2 className="text-xl font-bold">Not sure which service you need?</h2>
            <p className="mt-1 text-slate-300">
              Tell us about your business and we will suggest where to start.
            </p>
          </div>
          <ButtonLink to="/contact">Contact us</ButtonLink>
        </div>
      </section>
    </div>
  );
}
