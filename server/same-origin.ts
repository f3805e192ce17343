import type { Request, RequestHandler } from "express";
import type { Env } from "~/lib/env.server";
import { storeOrigin } from "~/lib/store-origin.server";
import { refuse } from "./refusal";

/**
 * Cross-site request forgery: a form on another site posting to ours with the visitor's cookies. Browsers say
 * where a request comes from (Sec-Fetch-Site, Origin); a post from anywhere but the store's own origin is refused.
 * A request that sends neither is not a browser's (curl, a payment provider's webhook), so it carries no cookies
 * a forgery could borrow.
 */
export function crossSiteReason(
  headers: { origin?: string | undefined; "sec-fetch-site"?: string | undefined },
  ownOrigin: string,
): string | null {
  const site = headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return `Sec-Fetch-Site is ${site}`;
  const origin = headers.origin;
  if (origin === undefined) return null;
  if (origin === "null") return "the origin is hidden (null)";
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return "the Origin header is not a URL";
  }
  return parsed.origin === new URL(ownOrigin).origin ? null : `the origin ${parsed.origin} is not this store`;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const isUnsafeMethod = (method: string) => !SAFE_METHODS.has(method.toUpperCase());

/** The address a request was sent to, as Express sees it (X-Forwarded-Proto and -Host only from a trusted proxy). */
export const requestOrigin = (req: Request) => `${req.protocol}://${req.host}`;

/** The store's own origin for this request: PUBLIC_URL when it is set, else the address the request was sent to. */
export const ownOriginOf = (env: Pick<Env, "PUBLIC_URL" | "PUBLIC_URL_SET">, req: Request) =>
  storeOrigin(env, requestOrigin(req));

/** A host name or IP address (IPv6 in brackets), with an optional port: nothing else may name the store. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export function isValidHost(host: string | undefined): host is string {
  if (!host || host.length > 255 || !HOST.test(host)) return false;
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Which address the store answers at. Forwarded headers count only from a trusted proxy (on this machine): from
 * anyone else they are dropped, so no later code reads them. A missing or malformed Host is refused. With PUBLIC_URL
 * set, a request to any other host is sent there: GETs are redirected permanently (health checks excepted, load
 * balancers use the machine's own address), anything else is refused as misdirected.
 */
export function checkAddress(env: Pick<Env, "PUBLIC_URL" | "PUBLIC_URL_SET">): RequestHandler {
  const publicUrl = new URL(env.PUBLIC_URL);
  return (req, res, next) => {
    const trusted = req.app.get("trust proxy fn") as (address: string | undefined, hop: number) => boolean;
    if (!trusted(req.socket.remoteAddress, 0)) {
      for (const name of ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-for", "forwarded"]) {
        delete req.headers[name];
      }
    }
    if (!isValidHost(req.host)) {
      refuse(req, res, 400, "The Host header must name the store's address.");
      return;
    }
    if (req.protocol !== "http" && req.protocol !== "https") {
      refuse(req, res, 400, "X-Forwarded-Proto must be http or https.");
      return;
    }
    if (
      !env.PUBLIC_URL_SET ||
      req.host.toLowerCase() === publicUrl.host ||
      req.path === "/healthz" ||
      req.path === "/healthz/live"
    )
      return next();
    if (req.method === "GET" || req.method === "HEAD") {
      res.redirect(301, `${publicUrl.origin}${req.originalUrl}`);
      return;
    }
    refuse(req, res, 421, `This store answers at ${publicUrl.origin}: send the request there.`);
  };
}
