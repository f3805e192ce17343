/**
 * npm run admin:create -- --email owner@example.com [--name "Store Owner"] [--role owner|orders|content|support]
 *
 * Creates the store's first (or another) owner, or a member of staff with one role (owner when left out). A new account gets a temporary password, printed here once;
 * an existing account is given the admin role and keeps its password (one whose address was never confirmed gets
 * a temporary password too).
 */
import { adminCreateCommand } from "./admin-create-command";

process.exitCode = await adminCreateCommand(process.argv.slice(2), process.env, console);
