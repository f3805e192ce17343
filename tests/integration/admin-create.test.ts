import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { adminCreateCommand } from "../../scripts/admin-create-command";
import { runCommand } from "../support/command";

const dataDir = mkdtempSync(path.join(tmpdir(), "storefront-admin-create-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `npm run admin:create` as a store owner runs it, with these variables (in this process; the script passes it
 * the process's arguments, variables and console). */
async function adminCreate(email: string, vars: Record<string, string>) {
  const run = await runCommand(adminCreateCommand, ["--email", email], {
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    ...vars,
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe("npm run admin:create", () => {
  it("tells the owner the address the store answers on", async () => {
    // The store listens on one interface and port: that is where to sign in.
    expect(await adminCreate("owner@example.com", { HOST: "127.0.0.1", PORT: "8123" })).toContain(
      "Sign in at http://127.0.0.1:8123/admin, then set a password of your own",
    );
    // PUBLIC_URL says it outright.
    expect(await adminCreate("second@example.com", { PUBLIC_URL: "https://shop.example.com" })).toContain(
      "Sign in at https://shop.example.com/admin",
    );
  }, 180_000);

  it("makes staff of a role, and refuses an unknown role naming the allowed ones, writing nothing", async () => {
    const made = await runCommand(adminCreateCommand, ["--email", "packer@example.com", "--role", "orders"], {
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
    });
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain("Created packer@example.com as staff (Orders).");

    const empty = mkdtempSync(path.join(tmpdir(), "storefront-admin-create-role-"));
    try {
      const refused = await runCommand(
        adminCreateCommand,
        ["--email", "x@example.com", "--role", "superuser"],
        {
          DATA_DIR: empty,
          LOG_LEVEL: "silent",
        },
      );
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain("--role must be one of owner, orders, content, support");
      // Refused before the database was opened: nothing was written.
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 180_000);

  // The one run of the script as a process of its own, as an owner types it (the other tests and the test stores
  // run its command in their own process); on the file's DATA_DIR, which the first test migrated.
  it("as a process, makes the owner and prints the temporary password once", () => {
    const made = spawnSync("npm", ["run", "--silent", "admin:create", "--", "--email", "boss@example.com"], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain("Created boss@example.com as an owner.");
    expect(made.stdout).toMatch(/Temporary password \(shown only now\): \S{12,}/);
  }, 180_000);
});
