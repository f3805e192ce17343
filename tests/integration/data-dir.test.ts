import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "~db/client.server";
import { secureDataDir } from "../../platform/data-dir.server";

/** Every file and folder under `root` whose mode lets other users in, with its mode. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const mode = statSync(entry).mode;
    if (mode & 0o077) found.push(`${path.relative(root, entry) || "."} ${(mode & 0o777).toString(8)}`);
    if (statSync(entry).isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return found;
}

describe("DATA_DIR is the store's alone", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "storefront-data-"));
    dirs.push(dir);
    return dir;
  };
  // Each test starts from the usual umask of a shell (022): what is written is readable by everyone unless the
  // store sees to it (secureDataDir changes the umask of the whole process).
  const umask = process.umask();
  beforeEach(() => {
    process.umask(0o022);
  });
  afterAll(() => {
    process.umask(umask);
  });
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("creates a missing DATA_DIR owner-only, and what the process writes afterwards is owner-only too", () => {
    const dataDir = path.join(tempDir(), "data");
    expect(secureDataDir(dataDir)).toEqual([]);
    writeFileSync(path.join(dataDir, "later.txt"), "x");
    mkdirSync(path.join(dataDir, "folder"));
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it("repairs what is already there and says which entries it changed", () => {
    const dataDir = tempDir();
    chmodSync(dataDir, 0o755);
    mkdirSync(path.join(dataDir, "pglite", "pg_wal"), { recursive: true });
    chmodSync(path.join(dataDir, "pglite"), 0o777);
    writeFileSync(path.join(dataDir, "pglite", "pg_wal", "000000010000000000000001"), "reset token");
    chmodSync(path.join(dataDir, "pglite", "pg_wal", "000000010000000000000001"), 0o666);
    writeFileSync(path.join(dataDir, "secrets.json"), "{}", { mode: 0o600 });
    expect(secureDataDir(dataDir).sort()).toEqual([
      ".",
      "pglite",
      "pglite/pg_wal",
      "pglite/pg_wal/000000010000000000000001",
    ]);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(secureDataDir(dataDir)).toEqual([]);
  });

  it("leaves no file of a new embedded database readable or writable by others", async () => {
    const dataDir = tempDir();
    const database = await openDatabase({ dataDir });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    expect(openToOthers(dataDir)).toEqual([]);
  });
});
