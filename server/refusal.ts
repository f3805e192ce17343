import type { Request, Response } from "express";
import { pathOf } from "./request-path";

/**
 * A request refused before any route sees it, answered the way its address answers everything: file storage in
 * its `{"error": {"code": "storage/...", "message"}}` shape, other APIs as `{"error": message}`, pages as plain text.
 * The message is the store's own words; nothing of the request is echoed.
 */
export function refuse(
  req: Request,
  res: Response,
  status: number,
  message: string,
  /** File storage's code for it, when its status alone does not say which. */
  storageCode?: string,
) {
  // These answers come before the security headers are added: the one that matters for plain text is this.
  res.status(status).set("X-Content-Type-Options", "nosniff");
  const path = pathOf(req);
  if (path.startsWith("/api/storage/")) {
    const code =
      storageCode ??
      (status === 405
        ? "storage/invalid-url"
        : status === 403
          ? "storage/unauthorized"
          : "storage/invalid-argument");
    res.json({ error: { code, message } });
  } else if (path.startsWith("/api/")) {
    res.json({ error: message });
  } else {
    res.type("text/plain").send(message);
  }
}
