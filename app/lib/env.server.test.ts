import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "./env.server";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "storefront-env-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("configuration", () => {
  it("has working defaults for the embedded store", () => {
    const dataDir = tempDir();
    const env = loadEnv({ DATA_DIR: dataDir });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PUBLIC_URL).toBe("http://localhost:3000");
    expect(env.DATA_DIR).toBe(dataDir);
  });

  it("names each bad variable and says what is wrong", () => {
    const run = () =>
      loadEnv({ DATA_DIR: tempDir(), PORT: "eighty", DATABASE_URL: "mysql://x", BLOG_URL: "blog" });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/PORT: /);
    expect(run).toThrow(/DATABASE_URL: must start with postgres:\/\/ or postgresql:\/\//);
    expect(run).toThrow(/BLOG_URL: must be the blog site's URL/);
  });

  it("generates the auth secret once, keeps it private in DATA_DIR and reuses it", () => {
    const dataDir = tempDir();
    const first = loadEnv({ DATA_DIR: dataDir });
    const second = loadEnv({ DATA_DIR: dataDir });
    expect(first.AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(first.ENCRYPTION_KEY, "base64url")).toHaveLength(32);
    expect(second.ENCRYPTION_KEY).toBe(first.ENCRYPTION_KEY);
    expect(second.AUTH_SECRET).toBe(first.AUTH_SECRET);
    const file = path.join(dataDir, "secrets.json");
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(readFileSync(file, "utf8")).toContain(first.AUTH_SECRET);
  });

  it("prefers AUTH_SECRET and ENCRYPTION_KEY from the environment and then writes no file", () => {
    const dataDir = tempDir();
    const key = "k".repeat(43);
    const env = loadEnv({ DATA_DIR: dataDir, AUTH_SECRET: "x".repeat(40), ENCRYPTION_KEY: key });
    expect(env.AUTH_SECRET).toBe("x".repeat(40));
    expect(env.ENCRYPTION_KEY).toBe(key);
    expect(() => statSync(path.join(dataDir, "secrets.json"))).toThrow();
    expect(() => loadEnv({ DATA_DIR: dataDir, AUTH_SECRET: "short" })).toThrow(
      /AUTH_SECRET: must be at least 32 characters/,
    );
  });
});
