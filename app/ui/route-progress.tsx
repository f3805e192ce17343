import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigation, useNavigationType } from "react-router";
import { Button } from "./button";
import { Spinner } from "./spinner";

/** How long the spinner shows after a client navigation (the spec's "about 200 ms"). */
export const ROUTE_SPINNER_MS = 200;
/** How long a page (its code and data) may take to load before the visitor is offered a retry. */
export const ROUTE_LOAD_TIMEOUT_MS = 120_000;

/**
 * On every client navigation to another page: scroll to the top and show the orange spinner once, from the moment
 * the next page starts loading (its code and data) until it is there, and for at least ROUTE_SPINNER_MS; never on
 * the first load, nor while the page reloads its own data after a form. After 120 s of loading, offer a retry.
 */
export function RouteProgress() {
  const location = useLocation();
  const navigation = useNavigation();
  const navigationType = useNavigationType();
  const page = `${location.pathname}${location.search}`;
  const pending = navigation.state === "loading" ? navigation.location : undefined;
  const pendingHref = pending ? `${pending.pathname}${pending.search}${pending.hash}` : null;
  const loadingAnotherPage = pending !== undefined && `${pending.pathname}${pending.search}` !== page;
  /** When the spinner of this navigation appeared (performance.now()); null while it is away. */
  const shownAt = useRef<number | null>(null);
  /** Keeps the spinner up after the page has arrived, until it has shown for ROUTE_SPINNER_MS. */
  const [holding, setHolding] = useState(false);
  const [timedOut, setTimedOut] = useState<string | null>(null);
  const shownPage = useRef(page);

  useEffect(() => {
    if (!loadingAnotherPage || shownAt.current !== null) return;
    shownAt.current = performance.now();
    setHolding(true);
  }, [loadingAnotherPage]);

  useEffect(() => {
    if (page === shownPage.current) return;
    shownPage.current = page;
    // Back and forward keep the position the visitor left (scroll restoration); new pages start at the top.
    if (navigationType !== "POP") window.scrollTo(0, 0);
    setTimedOut(null);
    // A page that needed nothing loaded gets its spinner now; one that loaded keeps the spinner it has.
    if (shownAt.current === null) {
      shownAt.current = performance.now();
      setHolding(true);
    }
  }, [page, navigationType]);

  useEffect(() => {
    if (!holding || loadingAnotherPage || shownAt.current === null) return;
    const timer = window.setTimeout(
      () => {
        shownAt.current = null;
        setHolding(false);
      },
      Math.max(0, shownAt.current + ROUTE_SPINNER_MS - performance.now()),
    );
    return () => window.clearTimeout(timer);
  }, [holding, loadingAnotherPage]);

  useEffect(() => {
    if (!pendingHref) return;
    const timer = window.setTimeout(() => setTimedOut(pendingHref), ROUTE_LOAD_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [pendingHref]);

  if (timedOut) {
    return (
      <div
        role="alert"
        className="fixed inset-x-0 top-4 z-50 mx-auto w-fit max-w-md rounded-xl border border-red-200 bg-white p-5 shadow-lg"
        data-testid="route-timeout"
      >
        <p className="font-semibold text-ink-900">This page is taking too long to load.</p>
        <p className="mt-1 text-sm text-slate-600">Check your connection and try again.</p>
        <div className="mt-4 flex gap-3">
          <Button onClick={() => window.location.assign(timedOut)}>Retry</Button>
          <Button variant="secondary" onClick={() => setTimedOut(null)}>
            Dismiss
          </Button>
        </div>
      </div>
    );
  }
  // Shown from the very render in which the next page starts loading, before the effects above note it.
  if (!holding && !loadingAnotherPage) return null;
  return (
    <div
      className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-white/40"
      data-testid="route-spinner"
    >
      <Spinner size={70} />
    </div>
  );
}
