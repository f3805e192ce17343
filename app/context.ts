import type { Database } from "~db/client.server";
import type { Env } from "~/lib/env.server";
import type { KeyCipher } from "~/lib/key-cipher.server";
import type { Logger } from "~/lib/logger.server";
import type { Auth } from "~/modules/accounts/auth.server";
import type { UserEvents } from "~/modules/accounts/user-events.server";
import type { ContentVersion } from "~/modules/content/content-version.server";
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
  /** better-auth: sessions, sign-in, sign-up, password reset (see modules/accounts). */
  auth: Auth;
  /** Changes to user records, pushed from the database (LISTEN/NOTIFY). */
  userEvents: UserEvents;
  /** Changes whenever what public pages show changes, in any process (LISTEN/NOTIFY). */
  contentVersion: ContentVersion;
  /** Told of a failure to reach the database, so that the store answers 503 until it is back. */
  availability?: { report(error: unknown): void };
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends ServerContext {}
}
