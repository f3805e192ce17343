import type { Env } from "./env.server";

/**
 * The store's own origin, for same-origin checks: PUBLIC_URL when it is set; otherwise the origin the request was
 * sent to, so the store works at whatever address it is reached on (localhost, 127.0.0.1, a LAN address).
 *
 * Unset, a client can name any host in its own requests; that only changes what the same client is told. Links in
 * e-mails never come from it (they use PUBLIC_URL, or the local address), and a browser always sends the Host of
 * the page it is on, so a page on another site still cannot pass for the store.
 */
export function storeOrigin(env: Pick<Env, "PUBLIC_URL" | "PUBLIC_URL_SET">, requestOrigin: string): string {
  return env.PUBLIC_URL_SET ? new URL(env.PUBLIC_URL).origin : requestOrigin;
}
