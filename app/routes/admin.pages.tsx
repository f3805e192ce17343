import { data, Link } from "react-router";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { cellClass, HeadCell, ListTable } from "~/modules/admin/components/list-controls";
import { formatWhen } from "~/modules/admin/content-fields";
import { listPages } from "~/modules/admin/content-pages.server";
import type { Route } from "./+types/admin.pages";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return data({ pages: await listPages(context.db) }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [
  { title: "Pages · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context);
  return data({ message: "Edit a page on its own page." }, { status: 405, headers: PRIVATE_HEADERS });
}

export default function PagesList({ loaderData }: Route.ComponentProps) {
  const { pages } = loaderData;
  return (
    <AdminPage
      title="Pages"
      intro="The information and policy pages, written in Markdown. Their addresses are fixed; each shows when it was last updated."
    >
      <ListTable
        caption="Information and policy pages"
        head={
          <>
            <HeadCell>Title</HeadCell>
            <HeadCell>Address</HeadCell>
            <HeadCell>Length</HeadCell>
            <HeadCell>Last updated</HeadCell>
            <HeadCell>
              <span className="sr-only">Actions</span>
            </HeadCell>
          </>
        }
      >
        {pages.map((page) => (
          <tr key={page.slug} data-testid="page-row" data-slug={page.slug}>
            <td className={`${cellClass} font-semibold text-ink-900`}>{page.title}</td>
            <td className={`${cellClass} font-mono text-xs`}>
              <a
                href={`/${page.slug}`}
                target="_blank"
                rel="noreferrer"
                className="text-brand-700 hover:underline"
              >
                /{page.slug}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </td>
            <td className={`${cellClass} whitespace-nowrap text-slate-600`}>
              {page.length.toLocaleString("en-US")} characters
            </td>
            <td className={`${cellClass} whitespace-nowrap text-xs text-slate-600`}>
              {formatWhen(page.updatedAt)}
            </td>
            <td className={`${cellClass} text-right`}>
              <Link
                to={`/admin/pages/${page.slug}`}
                className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:underline"
              >
                Edit<span className="sr-only"> {page.title}</span>
              </Link>
            </td>
          </tr>
        ))}
      </ListTable>
    </AdminPage>
  );
}
