import { useEffect } from "react";
import { useBlocker } from "react-router";

/**
 * While `unsaved` holds, leaving the page asks first: a link or back within the store through `message` (the page's
 * own question), closing or reloading the tab through the browser's. Posting a form of the same page is not leaving.
 */
export function useUnsavedChanges(unsaved: boolean, message: string) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(message)) blocker.proceed();
    else blocker.reset();
  }, [blocker, message]);
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [unsaved]);
}
