import type { HeadersFunction } from "react-router";

/**
 * The headers of a page whose action may refuse a client for a while: the action's Retry-After reaches the client,
 * and the parent's headers (a signed-in visitor's private Cache-Control) stay.
 */
export const headersWithRetryAfter: HeadersFunction = ({ parentHeaders, actionHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
