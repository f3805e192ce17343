import type { RequestHandler } from "express";
import { routePath } from "~/lib/route-path";
import { refuse } from "./refusal";

/**
 * A path React Router cannot read as it is written (bad percent-encoding, an encoded control character) is refused
 * with 400 before anything decides on it: the router would fall back to the undecoded path, so no rule by path
 * could be sure which page it stands for.
 */
export function refuseUnreadablePaths(): RequestHandler {
  return (req, res, next) => {
    if (routePath(req.path) !== undefined) return next();
    refuse(
      req,
      res,
      400,
      "This address cannot be read: it has a malformed percent-encoding (% and two hex digits) or a control character.",
      "storage/invalid-url",
    );
  };
}
