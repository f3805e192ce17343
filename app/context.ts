import type { Database } from "~db/client.server";
import type { Env } from "~/lib/env.server";
import type { KeyCipher } from "~/lib/key-cipher.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/modules/email/outbox.server";
import type { StorageAuth } from "~/modules/storage/access.server";
import type { StorageService } from "~/modules/storage/storage.server";

/** What the server hands every loader and action. Server-only: never sent to the browser. */
export type ServerContext = {
  db: Database;
  env: Env;
  logger: Logger;
  cspNonce: string;
  /** Sends the e-mail outbox; kick() after a commit that wrote messages. */
  mailer: Pick<Mailer, "kick">;
  /** Encrypts and decrypts licence keys. */
  cipher: KeyCipher;
  /** Stored files (product images, uploads). */
  storage: StorageService;
  /** Who is calling, for the storage rules (the accounts' session once it exists). */
  storageAuth: StorageAuth;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends ServerContext {}
}
