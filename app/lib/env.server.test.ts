import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../platform/config-error";
import { loadEnv } from "./env.server";

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

  it("without PUBLIC_URL, names the address the store answers on: its interface and PORT", () => {
    const at = (vars: Record<string, string>) => loadEnv({ DATA_DIR: tempDir(), ...vars });
    expect(at({ PORT: "8321" })).toMatchObject({
      PUBLIC_URL: "http://localhost:8321",
      PUBLIC_URL_SET: false,
    });
    expect(at({ HOST: "127.0.0.1", PORT: "8080" }).PUBLIC_URL).toBe("http://127.0.0.1:8080");
    expect(at({ HOST: "::1" }).PUBLIC_URL).toBe("http://[::1]:3000");
    expect(at({ HOST: "::" }).PUBLIC_URL).toBe("http://localhost:3000");
    expect(at({ PUBLIC_URL: "https://shop.example.com/" })).toMatchObject({
      PUBLIC_URL: "https://shop.example.com",
      PUBLIC_URL_SET: true,
    });
    expect(() => at({ PUBLIC_URL: "ftp://shop.example.com" })).toThrow(
      /PUBLIC_URL: must be the store's address/,
    );
    expect(() => at({ PUBLIC_URL: "https://shop.example.com/store" })).toThrow(
      /PUBLIC_URL: must be the store's address/,
    );
  });

  it("limits how long a client may take to send a request, in seconds that can be changed", () => {
    expect(loadEnv({ DATA_DIR: tempDir() })).toMatchObject({
      HEADERS_TIMEOUT_SECONDS: 20,
      REQUEST_TIMEOUT_SECONDS: 120,
    });
    expect(
      loadEnv({ DATA_DIR: tempDir(), HEADERS_TIMEOUT_SECONDS: "2", REQUEST_TIMEOUT_SECONDS: "5" }),
    ).toMatchObject({ HEADERS_TIMEOUT_SECONDS: 2, REQUEST_TIMEOUT_SECONDS: 5 });
    expect(() => loadEnv({ DATA_DIR: tempDir(), REQUEST_TIMEOUT_SECONDS: "soon" })).toThrow(
      /REQUEST_TIMEOUT_SECONDS: must be a number of seconds/,
    );
    expect(() =>
      loadEnv({ DATA_DIR: tempDir(), HEADERS_TIMEOUT_SECONDS: "30", REQUEST_TIMEOUT_SECONDS: "10" }),
    ).toThrow(/HEADERS_TIMEOUT_SECONDS: must not be longer than REQUEST_TIMEOUT_SECONDS/);
  });

  it("keeps an idle connection open longer than a proxy in front keeps its own, unless told otherwise", () => {
    expect(loadEnv({ DATA_DIR: tempDir() }).KEEP_ALIVE_TIMEOUT_SECONDS).toBe(72);
    expect(loadEnv({ DATA_DIR: tempDir(), KEEP_ALIVE_TIMEOUT_SECONDS: "5" }).KEEP_ALIVE_TIMEOUT_SECONDS).toBe(
      5,
    );
    expect(() => loadEnv({ DATA_DIR: tempDir(), KEEP_ALIVE_TIMEOUT_SECONDS: "0" })).toThrow(
      /KEEP_ALIVE_TIMEOUT_SECONDS: must be at least 1 second/,
    );
  });

  it("refuses a time longer than a timer can wait, which would fire at once and again every millisecond", () => {
    for (const name of [
      "ORDER_EXPIRY_INTERVAL_SECONDS",
      "SHUTDOWN_TIMEOUT_SECONDS",
      "KEEP_ALIVE_TIMEOUT_SECONDS",
    ]) {
      expect(() => loadEnv({ DATA_DIR: tempDir(), [name]: "2500000" })).toThrow(
        new RegExp(`${name}: must be at most 2073600 seconds \\(24 days\\)`),
      );
      expect(loadEnv({ DATA_DIR: tempDir(), [name]: "2073600" })).toMatchObject({ [name]: 2073600 });
    }
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

  it("stores files on the local disk by default, with size and quota limits that can be changed", () => {
    const env = loadEnv({ DATA_DIR: tempDir(), STORAGE_UPLOADS_QUOTA_BYTES: "5000" });
    expect(env.STORAGE_DRIVER).toBe("local");
    expect(env.STORAGE_MAX_OBJECT_BYTES).toBe(10 * 1024 * 1024);
    expect(env.STORAGE_UPLOADS_QUOTA_BYTES).toBe(5000);
    expect(env.STORAGE_UPLOADS_USER_QUOTA_BYTES).toBe(100 * 1024 * 1024);
    expect(
      loadEnv({ DATA_DIR: tempDir(), STORAGE_UPLOADS_USER_QUOTA_BYTES: "2000" })
        .STORAGE_UPLOADS_USER_QUOTA_BYTES,
    ).toBe(2000);
    expect(() => loadEnv({ DATA_DIR: tempDir(), STORAGE_UPLOADS_USER_QUOTA_BYTES: "0" })).toThrow(
      /STORAGE_UPLOADS_USER_QUOTA_BYTES: must be at least 1 byte/,
    );
    expect(() => loadEnv({ DATA_DIR: tempDir(), STORAGE_MAX_OBJECT_BYTES: "lots" })).toThrow(
      /STORAGE_MAX_OBJECT_BYTES: must be a number of bytes/,
    );
  });

  it("asks for the S3 settings by name when STORAGE_DRIVER=s3", () => {
    const run = (extra: Record<string, string>) => () =>
      loadEnv({ DATA_DIR: tempDir(), STORAGE_DRIVER: "s3", ...extra });
    expect(run({})).toThrow(/S3_BUCKET: is required when STORAGE_DRIVER=s3/);
    expect(run({})).toThrow(/S3_REGION: is required when STORAGE_DRIVER=s3/);
    expect(run({ S3_BUCKET: "files", S3_REGION: "auto", S3_ACCESS_KEY_ID: "id" })).toThrow(
      /S3_SECRET_ACCESS_KEY: must be set together with the other S3 key/,
    );
    expect(run({ S3_BUCKET: "Not A Bucket", S3_REGION: "auto" })).toThrow(
      /S3_BUCKET: must be an S3 bucket name/,
    );
    expect(run({ S3_BUCKET: "files", S3_REGION: "auto", S3_FORCE_PATH_STYLE: "maybe" })).toThrow(
      /S3_FORCE_PATH_STYLE: must be true or false/,
    );
    expect(() => loadEnv({ DATA_DIR: tempDir(), STORAGE_DRIVER: "ftp" })).toThrow(
      /STORAGE_DRIVER: must be local \(files under DATA_DIR\/storage\) or s3/,
    );
    const env = run({
      S3_BUCKET: "files",
      S3_REGION: "auto",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
    })();
    expect(env).toMatchObject({ STORAGE_DRIVER: "s3", S3_BUCKET: "files", S3_FORCE_PATH_STYLE: true });
  });
});
