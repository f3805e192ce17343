import { PageLink } from "~/ui/page-link";
import { ProductCard } from "~/modules/catalogue/components/product-card";
import { productsWithTag } from "~/modules/catalogue/catalogue.server";
import { useSelection } from "~/modules/catalogue/selection-provider";
import { getActiveBanners, getLatestBlogPosts } from "~/modules/content/home.server";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import type { Route } from "./+types/home";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  return fromSnapshot(context, `home:${pathname}`, () => homeData(context, pathname));
}

async function homeData(context: Route.LoaderArgs["context"], pathname: string) {
  const [seo, banners, bestSellers, topRated, posts] = await Promise.all([
    seoForPath(context, pathname, {
      page: {
        title: "Antivirus, Windows licences, printers and routers",
        description:
          "Antivirus and security suites, Windows licences, printers, routers and digital services from an independent reseller.",
      },
    }),
    getActiveBanners(context),
    productsWithTag(context, "best-seller", 8),
    productsWithTag(context, "top-rated", 8),
    getLatestBlogPosts(context),
  ]);
  return { seo, banners, bestSellers, topRated, posts };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Home({ loaderData }: Route.ComponentProps) {
  const { banners, bestSellers, topRated, posts } = loaderData;
  const { selectBlog } = useSelection();
  const hero = banners[0];
  return (
    <div>
      {hero ? (
        <section className="relative isolate overflow-hidden bg-ink-900" data-testid="banner">
          <img
            src={hero.image}
            alt={hero.alt}
            width={1600}
            height={500}
            className="absolute inset-0 -z-10 h-full w-full object-cover opacity-60"
          />
          <div className="mx-auto max-w-7xl px-4 py-20 sm:py-28">
            <h1 className="max-w-2xl text-4xl font-extrabold tracking-tight text-white sm:text-5xl">
              {hero.title}
            </h1>
            {hero.subtitle ? <p className="mt-4 max-w-xl text-lg text-slate-100">{hero.subtitle}</p> : null}
            <PageLink
              to={hero.link}
              className="mt-8 inline-block rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
            >
              Shop now
            </PageLink>
          </div>
        </section>
      ) : null}

      <ProductRow id="best-sellers" title="Best sellers" link="/best-sellers" products={bestSellers} />
      <ProductRow id="top-rated" title="Top rated" link="/top-rated" products={topRated} />

      {posts.length > 0 ? (
        <section className="mx-auto max-w-7xl px-4 pt-14" aria-labelledby="blog-heading">
          <h2 id="blog-heading" className="text-2xl font-bold">
            From the blog
          </h2>
          <div className="mt-6 grid gap-6 md:grid-cols-3">
            {posts.map((post) => (
              <a
                key={post.slug}
                href={`/blog/${post.slug}`}
                onClick={() => selectBlog(post.slug)}
                data-testid="blog-teaser"
                className="overflow-hidden rounded-2xl border border-slate-200 bg-white hover:shadow-md"
              >
                <img
                  src={post.image}
                  alt=""
                  width={800}
                  height={450}
                  loading="lazy"
                  className="aspect-video w-full object-cover"
                />
                <div className="p-4">
                  <h3 className="font-semibold">{post.title}</h3>
                  <p className="mt-2 line-clamp-3 text-sm text-slate-600">{post.excerpt}</p>
                </div>
              </a>
            ))}
          </div>
        </section>
      ) : null}
    </div>
  );
}

function ProductRow({
  id,
  title,
  link,
  products,
}: {
  id: string;
  title: string;
  link: string;
  products: Route.ComponentProps["loaderData"]["bestSellers"];
}) {
  if (products.length === 0) return null;
  return (
    <section className="mx-auto max-w-7xl px-4 pt-14" aria-labelledby={`${id}-heading`} data-testid={id}>
      <div className="flex items-baseline justify-between">
        <h2 id={`${id}-heading`} className="text-2xl font-bold">
          {title}
        </h2>
        <PageLink to={link} className="text-sm font-semibold text-brand-700 hover:underline">
          See all
        </PageLink>
      </div>
      <div className="mt-6 grid grid-cols-2 gap-4 sm:gap-6 md:grid-cols-3 lg:grid-cols-4">
        {products.map((product) => (
          <ProductCard key={product.id} product={product} />
        ))}
      </div>
    </section>
  );
}
