import type { RequestHandler } from "express";
import { refuse } from "./refusal";
import { pathOf } from "./request-path";

/** The APIs that only take data: nothing to read there. */
const POST_ONLY = new Set(["/api/cart/quote", "/api/stripe/webhook", "/api/user/activity"]);

/**
 * The methods the store answers, by path: pages and APIs take GET, HEAD and POST, the APIs that only take data
 * POST alone; stored files can be deleted too. Any other method (TRACE, PUT on a page, WebDAV's PROPFIND, a GET
 * of the cart quote...) gets 405 with the Allow list before it reaches a route, and OPTIONS gets that list alone
 * (there is no cross-origin API to describe).
 */
export function allowedMethods(path: string): string[] {
  if (POST_ONLY.has(path)) return ["POST"];
  return path.startsWith("/api/storage/") ? ["GET", "HEAD", "POST", "DELETE"] : ["GET", "HEAD", "POST"];
}

export function refuseOtherMethods(): RequestHandler {
  return (req, res, next) => {
    const allowed = allowedMethods(pathOf(req));
    if (allowed.includes(req.method)) return next();
    res.set("Allow", [...allowed, "OPTIONS"].join(", "));
    if (req.method === "OPTIONS") {
      res.status(204).end();
      return;
    }
    refuse(
      req,
      res,
      405,
      `This address does not take ${req.method} requests; it takes ${allowed.join(", ")}.`,
    );
  };
}
