import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "./config-error";

/**
 * DATA_DIR holds the embedded database (password hashes, sessions, reset tokens in its files and WAL), the
 * generated secrets and private uploads: only the user the store runs as may read or write any of it.
 */
export const OWNER_ONLY_DIR = 0o700;
export const OWNER_ONLY_FILE = 0o600;

/**
 * Makes everything the process creates from now on owner-only (umask 077), creates `dataDir` owner-only if it is
 * missing, and repairs what is already there. Returns the paths whose modes were repaired (relative to dataDir).
 */
export function secureDataDir(dataDir: string): string[] {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: OWNER_ONLY_DIR });
  return makeOwnerOnly(dataDir).map((entry) => path.relative(dataDir, entry) || ".");
}

/**
 * Takes group and other permissions off `root` and everything under it (symbolic links are left alone, and not
 * followed). Returns the paths it changed.
 */
export function makeOwnerOnly(root: string): string[] {
  const changed: string[] = [];
  const visit = (entry: string) => {
    const stat = lstatSync(entry, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    try {
      if (stat.isDirectory()) {
        if ((stat.mode & 0o777) !== OWNER_ONLY_DIR) {
          chmodSync(entry, OWNER_ONLY_DIR);
          changed.push(entry);
        }
        for (const name of readdirSync(entry)) visit(path.join(entry, name));
      } else if (stat.mode & 0o077) {
        chmodSync(entry, (stat.mode & 0o700) | OWNER_ONLY_FILE);
        changed.push(entry);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Removed while we looked (a database's temporary file): nothing left to protect.
      if (code === "ENOENT") return;
      if (code === "EPERM") {
        throw new ConfigError(
          `${entry} belongs to another user, so it cannot be made private to the store: give it to the user the store runs as (chown).`,
        );
      }
      throw error;
    }
  };
  visit(root);
  return changed;
}

/** The line an operator reads when modes were repaired at start. */
export function repairedModesNotice(dataDir: string, repaired: string[]): string {
  const shown = repaired.slice(0, 5).join(", ");
  const more = repaired.length > 5 ? ` and ${repaired.length - 5} more` : "";
  return `${dataDir} had ${repaired.length} ${repaired.length === 1 ? "entry" : "entries"} other users could read or write (${shown}${more}): made them owner-only.`;
}
