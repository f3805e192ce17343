import { PageLink } from "~/ui/page-link";
import type { BrandTile as BrandTileData } from "../catalogue.server";
import { brandPath } from "../sections";

const productCount = (count: number) => (count === 1 ? "1 product" : `${count} products`);

/** A brand's logo, name and product count, linking to its brand page. */
export function BrandTile({ brand }: { brand: BrandTileData }) {
  return (
    <PageLink
      to={brandPath(brand)}
      className="group flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:border-brand-300 hover:shadow-md"
      data-testid="brand-tile"
    >
      <span className="flex items-center justify-center bg-slate-50 p-4">
        {/* A box of its own before the file arrives (a lazy image sized by its file is a browser warning). */}
        <img
          src={brand.logo}
          alt=""
          width={320}
          height={120}
          loading="lazy"
          className="aspect-[8/3] h-16 w-auto max-w-full object-contain sm:h-20"
        />
      </span>
      {/* The count goes under the name: beside it, a long name left a two-column phone grid no room for it. */}
      <span className="flex flex-1 flex-col gap-0.5 px-4 py-3">
        <span
          className="break-words font-semibold text-ink-900 group-hover:text-brand-700"
          data-testid="brand-tile-name"
        >
          {brand.name}
        </span>
        <span className="text-xs text-slate-500" data-testid="brand-tile-count">
          {productCount(brand.productCount)}
        </span>
      </span>
    </PageLink>
  );
}

/** The brands of one section as a compact list with counts (the categories page). */
export function BrandLinkList({ brands }: { brands: BrandTileData[] }) {
  return (
    <ul className="divide-y divide-slate-100">
      {brands.map((brand) => (
        <li key={brand.key}>
          <PageLink
            to={brandPath(brand)}
            className="flex items-center justify-between gap-3 py-2.5 text-sm hover:text-brand-700"
            data-testid="category-brand"
          >
            <span className="font-medium">{brand.name}</span>
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600">
              {productCount(brand.productCount)}
            </span>
          </PageLink>
        </li>
      ))}
    </ul>
  );
}
