import { type ComponentProps, useEffect } from "react";
import { useNavigate } from "react-router";

/**
 * A link to one of the store's pages (an absolute path) as a plain anchor: it navigates in the page like React
 * Router's Link, through the one click listener of `usePageLinks`, without a Link's hooks in every link of every
 * render (product cards, footers and breadcrumbs render dozens per page). `data-discover` lets React Router load
 * the route's code ahead, as it does for its own links.
 */
export function PageLink({ to, children, ...props }: Omit<ComponentProps<"a">, "href"> & { to: string }) {
  return (
    <a {...props} href={to} data-page-link="" data-discover="true">
      {children}
    </a>
  );
}

/** A plain left click on a PageLink, which the browser would follow to the same origin. */
function pageLinkOf(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const anchor = (event.target as Element | null)?.closest?.("a[data-page-link]");
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return null;
  return anchor.origin === window.location.origin ? anchor : null;
}

/** Makes every PageLink of the page navigate in the page (once, around the whole app). */
export function usePageLinks() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const anchor = pageLinkOf(event);
      if (!anchor) return;
      event.preventDefault();
      const to = `${anchor.pathname}${anchor.search}${anchor.hash}`;
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      // As a Link does: the same address again replaces the history entry rather than adding one.
      void navigate(to, { replace: to === here });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
