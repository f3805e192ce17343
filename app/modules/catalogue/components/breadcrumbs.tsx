import { PageLink } from "~/ui/page-link";

export type BreadcrumbItem = { label: string; to?: string };

/** Home / ... / the current page (not a link). */
export function Breadcrumbs({ items, tone = "light" }: { items: BreadcrumbItem[]; tone?: "light" | "dark" }) {
  const colours =
    tone === "dark"
      ? { list: "text-slate-200", link: "hover:text-white", current: "text-white" }
      : { list: "text-slate-500", link: "hover:text-brand-700", current: "text-ink-900" };
  const all: BreadcrumbItem[] = [{ label: "Home", to: "/" }, ...items];
  return (
    <nav aria-label="Breadcrumb" className={`text-sm ${colours.list}`} data-testid="breadcrumbs">
      <ol className="flex flex-wrap items-center gap-x-1.5 gap-y-1">
        {all.map((item, index) => {
          const last = index === all.length - 1;
          return (
            <li key={`${item.label}-${index}`} className="flex items-center gap-1.5">
              {index > 0 ? <span aria-hidden="true">/</span> : null}
              {last || !item.to ? (
                <span aria-current={last ? "page" : undefined} className={`font-medium ${colours.current}`}>
                  {item.label}
                </span>
              ) : (
                <PageLink to={item.to} className={colours.link}>
                  {item.label}
                </PageLink>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
