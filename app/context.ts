import type { Database } from "~db/client.server";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";

/** What the server hands every loader and action. Server-only: never sent to the browser. */
export type ServerContext = {
  db: Database;
  env: Env;
  logger: Logger;
  cspNonce: string;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends ServerContext {}
}
