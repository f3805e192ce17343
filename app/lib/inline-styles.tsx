import { createContext, useContext } from "react";

/**
 * What the server writes into the page's <style> element: a stand-in its page sink swaps for the stylesheet's bytes
 * (app/entry.server.tsx); empty in the browser.
 */
const StylesContext = createContext("");

export const StylesProvider = StylesContext.Provider;

/**
 * The stylesheet written into the page's head: the first paint waits for no request (there is no stylesheet to
 * fetch), and the page never shows unstyled. In the browser this renders nothing, and React leaves the server's
 * <style> element in the head as it is, through hydration and every later render (even a failed hydration keeps
 * style elements). See docs/decisions/0025-first-load-budget.md.
 */
export function InlineStyles() {
  const css = useContext(StylesContext);
  return css ? <style dangerouslySetInnerHTML={{ __html: css }} /> : null;
}
