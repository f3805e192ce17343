import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigation, useNavigationType } from "react-router";
import { Button } from "./button";
import { Spinner } from "./spinner";

/** How long the spinner shows after a client navigation (the spec's "about 200 ms"). */
export const ROUTE_SPINNER_MS = 200;
/** How long a page (its code and data) may take to load before the visitor is offered a retry. */
export const ROUTE_LOAD_TIMEOUT_MS = 120_000;

/**
 * On every client navigation: scroll to the top, show the orange spinner for about 200 ms (not on the first load),
 * keep it while the next page's code and data load, and after 120 s offer a retry instead.
 */
export function RouteProgress() {
  const location = useLocation();
  const navigation = useNavigation();
  const navigationType = useNavigationType();
  const [flash, setFlash] = useState(false);
  const [timedOut, setTimedOut] = useState<string | null>(null);
  const firstKey = useRef(location.key);

  useEffect(() => {
    if (location.key === firstKey.current) return;
    // Back and forward keep the position the visitor left (scroll restoration); new pages start at the top.
    if (navigationType !== "POP") window.scrollTo(0, 0);
    setFlash(true);
    setTimedOut(null);
    const timer = window.setTimeout(() => setFlash(false), ROUTE_SPINNER_MS);
    return () => window.clearTimeout(timer);
  }, [location.key, navigationType]);

  const pending = navigation.state === "loading" ? navigation.location : undefined;
  const pendingHref = pending ? `${pending.pathname}${pending.search}${pending.hash}` : null;
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
  if (!flash && !pending) return null;
  return (
    <div
      className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-white/40"
      data-testid="route-spinner"
    >
      <Spinner size={70} />
    </div>
  );
}
