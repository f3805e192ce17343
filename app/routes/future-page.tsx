import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { ButtonLink } from "~/ui/button";
import type { Route } from "./+types/future-page";

// Pages announced but not open yet: the header, this one page and the footer.
export async function loader({ context, request }: Route.LoaderArgs) {
  return { seo: await seoForPath(context, new URL(request.url).pathname) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function FuturePage() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center" data-testid="future-page">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Coming soon</p>
      <h1 className="mt-2 text-4xl font-extrabold tracking-tight">This page is on its way</h1>
      <p className="mt-4 text-slate-600">
        We are preparing something new here. In the meantime, the whole catalogue is open.
      </p>
      <ButtonLink to="/categories" className="mt-8">
        Browse all categories
      </ButtonLink>
    </section>
  );
}
