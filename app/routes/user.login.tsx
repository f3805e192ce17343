import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { ButtonLink } from "~/ui/button";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/user.login";

export async function loader({ context, request }: Route.LoaderArgs) {
  return { seo: await seoForPath(context, new URL(request.url).pathname) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Login() {
  return (
    <div>
      <PageHeader title="Sign in" />
      <section className="mx-auto max-w-xl px-4 py-12" data-testid="login-page">
        <p className="text-slate-700">
          Customer accounts are opening soon. Until then you can order as a guest: your licence keys and order
          link arrive by e-mail.
        </p>
        <ButtonLink to="/categories" className="mt-6">
          Continue shopping
        </ButtonLink>
      </section>
    </div>
  );
}
