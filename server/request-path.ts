import type { Request } from "express";
import { routePath } from "~/lib/route-path";

/**
 * The path React Router renders for a request (app/lib/route-path.ts), which the server's own rules by path look at
 * too, so that an address is refused, limited and answered alike however it is spelled. A path that has none (it
 * does not decode) is refused before any of them run; they see it as sent.
 */
export const pathOf = (req: Pick<Request, "path">) => routePath(req.path) ?? req.path;
