import { useRouteLoaderData } from "react-router";
import { Icon } from "~/ui/icon";

/** The store's name from the root loader; the notice must name the store even if that data is missing. */
function useStoreName(): string {
  const root = useRouteLoaderData("root") as { store?: { name?: unknown } } | undefined;
  return typeof root?.store?.name === "string" && root.store.name ? root.store.name : "This store";
}

/**
 * The independent-reseller notice of every brand and product page. Part of the template, not of the editable
 * brand content, so no content edit can remove it.
 */
export function ResellerNotice({
  brandName,
  owner,
  officialWebsite,
  className = "",
}: {
  brandName: string;
  /** The company behind the brand (Microsoft for Windows 7). */
  owner: string;
  officialWebsite: string;
  className?: string;
}) {
  const storeName = useStoreName();
  return (
    <aside
      aria-label="Independent reseller notice"
      className={`flex gap-3 rounded-xl border border-slate-200 bg-slate-50 p-4 text-sm leading-relaxed text-slate-700 ${className}`}
      data-testid="reseller-notice"
    >
      <Icon name="info" className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" />
      <p>
        <span data-testid="reseller-notice-text">
          {storeName} is an independent reseller. We are not affiliated with or endorsed by {owner}.
        </span>{" "}
        <a
          href={officialWebsite}
          target="_blank"
          rel="noopener noreferrer"
          className="font-semibold text-brand-700 underline-offset-2 hover:underline"
          data-testid="official-website"
        >
          Visit the official {owner === brandName ? brandName : owner} website
          <span className="sr-only"> (opens in a new tab)</span>
          <span aria-hidden="true"> ↗</span>
        </a>
      </p>
    </aside>
  );
}
