import { asc, eq } from "drizzle-orm";
import { type ServicePackage, services } from "~db/schema";
import type { ServerContext } from "~/context";

export type ServiceSummary = {
  slug: string;
  title: string;
  summary: string;
  /** The cheapest package's price, for "from $149.00"; null when the service has no packages. */
  fromPriceCents: number | null;
  packageCount: number;
};

export type Service = {
  slug: string;
  title: string;
  summary: string;
  /** Markdown. */
  body: string;
  packages: ServicePackage[];
};

/** The digital services for the /digital landing page, in their set order. */
export async function listServices({ db }: Pick<ServerContext, "db">): Promise<ServiceSummary[]> {
  const rows = await db
    .select({
      slug: services.slug,
      title: services.title,
      summary: services.summary,
      packages: services.packages,
    })
    .from(services)
    .orderBy(asc(services.position), asc(services.slug));
  return rows.map(({ packages, ...service }) => ({
    ...service,
    fromPriceCents: packages.length > 0 ? Math.min(...packages.map((pkg) => pkg.priceCents)) : null,
    packageCount: packages.length,
  }));
}

/** One service by its slug, case-insensitively; null when there is none. */
export async function getService({ db }: Pick<ServerContext, "db">, slug: string): Promise<Service | null> {
  const [row] = await db
    .select({
      slug: services.slug,
      title: services.title,
      summary: services.summary,
      body: services.body,
      packages: services.packages,
    })
    .from(services)
    .where(eq(services.slug, slug.toLowerCase()))
    .limit(1);
  return row ?? null;
}
