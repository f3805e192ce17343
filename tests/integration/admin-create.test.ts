import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dataDir = mkdtempSync(path.join(tmpdir(), "storefront-admin-create-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs `npm run admin:create` as a store owner would, with these variables. */
function adminCreate(email: string, vars: Record<string, string>) {
  const run = spawnSync(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "scripts/admin-create.ts", "--email", email],
    {
      encoding: "utf8",
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: "silent", ...vars },
    },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe("npm run admin:create", () => {
  it("tells the owner the address the store answers on", () => {
    // The store listens on one interface and port: that is where to sign in.
    expect(adminCreate("owner@example.com", { HOST: "127.0.0.1", PORT: "8123" })).toContain(
      "Sign in at http://127.0.0.1:8123/admin, then set a password of your own",
    );
    // PUBLIC_URL says it outright.
    expect(adminCreate("second@example.com", { PUBLIC_URL: "https://shop.example.com" })).toContain(
      "Sign in at https://shop.example.com/admin",
    );
  }, 180_000);
});
