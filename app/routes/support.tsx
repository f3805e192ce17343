import { data, Link } from "react-router";
import { brandWithContent } from "~/modules/catalogue/catalogue.server";
import { BrandContent } from "~/modules/catalogue/components/brand-content";
import { supportParamsSchema } from "~/modules/catalogue/schemas";
import { brandPath } from "~/modules/catalogue/sections";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import type { Route } from "./+types/support";

// /support/{brandkey}: the brand's support content without its products.
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const parsed = supportParamsSchema.safeParse(params);
  if (!parsed.success) throw data(null, { status: 404 });
  const { pathname } = new URL(request.url);
  const page = await fromSnapshot(context, `support:${pathname}`, async () => {
    const found = await brandWithContent(context, parsed.data.brand);
    if (!found) return null;
    const seo = await seoForPath(context, pathname, {
      page: { title: found.content.title, description: found.content.whyChoose },
      canonicalPath: `/support/${found.brand.slug}`,
    });
    return { ...found, seo };
  });
  if (!page) throw data(null, { status: 404 });
  return page;
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function SupportPage({ loaderData }: Route.ComponentProps) {
  const { brand, content } = loaderData;
  return (
    <BrandContent
      brand={brand}
      content={content}
      crumbs={[{ label: "Support" }, { label: brand.name }]}
      aside={
        <Link
          to={brandPath(brand)}
          className="font-semibold text-white underline underline-offset-4 hover:text-brand-200"
        >
          Shop {brand.name} products
        </Link>
      }
    />
  );
}
