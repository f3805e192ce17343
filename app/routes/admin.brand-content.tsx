import { data, Link } from "react-router";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { cellClass, HeadCell, ListTable } from "~/modules/admin/components/list-controls";
import { formatWhen } from "~/modules/admin/content-fields";
import { listBrandContent } from "~/modules/admin/content.server";
import type { Route } from "./+types/admin.brand-content";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return data({ entries: await listBrandContent(context.db) }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [
  { title: "Brand content · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context);
  return data({ message: "Edit an entry on its own page." }, { status: 405, headers: PRIVATE_HEADERS });
}

export default function BrandContentList({ loaderData }: Route.ComponentProps) {
  const { entries } = loaderData;
  return (
    <AdminPage
      title="Brand content"
      intro="The support content of each brand page: title, banner, logo, why-choose text, contact block, three benefits, features and testimonials. Windows 7, 8 and XP share one entry. The independent-reseller notice is part of the page template and cannot be edited here."
    >
      <ListTable
        caption="Brand content entries"
        head={
          <>
            <HeadCell className="w-28">Logo</HeadCell>
            <HeadCell>Entry</HeadCell>
            <HeadCell>Shown on</HeadCell>
            <HeadCell>Updated</HeadCell>
            <HeadCell>
              <span className="sr-only">Actions</span>
            </HeadCell>
          </>
        }
      >
        {entries.map((entry) => (
          <tr key={entry.key} data-testid="brand-content-row" data-key={entry.key}>
            <td className={cellClass}>
              <img
                src={entry.logo}
                alt=""
                width={96}
                height={36}
                loading="lazy"
                className="h-9 w-24 rounded border border-slate-200 bg-white object-contain p-0.5"
              />
            </td>
            <td className={cellClass}>
              <p className="font-semibold text-ink-900">{entry.title}</p>
              <p className="mt-0.5 flex flex-wrap items-center gap-2 text-xs">
                <span className="font-mono text-slate-500">{entry.key}</span>
                {entry.sample ? (
                  <span
                    className="whitespace-nowrap rounded-full border border-amber-300 bg-amber-50 px-2 py-0.5 font-semibold text-amber-900"
                    title="The testimonials are marked as sample content"
                  >
                    Sample reviews
                  </span>
                ) : null}
              </p>
            </td>
            <td className={cellClass}>
              {entry.usedBy.length === 0 ? (
                <span className="text-xs italic text-slate-500">No brand page uses it</span>
              ) : (
                <ul className="flex flex-wrap gap-1.5" aria-label={`Brand pages showing ${entry.title}`}>
                  {entry.usedBy.map((brand) => (
                    <li key={brand.key}>
                      <a
                        href={brand.path}
                        target="_blank"
                        rel="noreferrer"
                        className="inline-block rounded-full border border-slate-300 px-2.5 py-0.5 text-xs font-semibold text-ink-900 hover:border-brand-500 hover:text-brand-700"
                      >
                        {brand.name}
                        <span className="sr-only"> (opens {brand.path} in a new tab)</span>
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </td>
            <td className={`${cellClass} whitespace-nowrap text-xs text-slate-600`}>
              {formatWhen(entry.updatedAt)}
            </td>
            <td className={`${cellClass} text-right`}>
              <Link
                to={`/admin/brand-content/${encodeURIComponent(entry.key)}`}
                className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:underline"
              >
                Edit<span className="sr-only"> {entry.title}</span>
              </Link>
            </td>
          </tr>
        ))}
      </ListTable>
    </AdminPage>
  );
}
