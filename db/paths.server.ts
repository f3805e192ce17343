import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project root, found from this file whether it runs from source or from the built server. */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error("Could not find the project root (no package.json above the server files)");
    dir = parent;
  }
  return dir;
}

export const migrationsFolder = () => path.join(projectRoot(), "db", "migrations");
