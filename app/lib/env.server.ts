import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ConfigError } from "../../platform/config-error";

const optionalUrl = (what: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(z.url(`must be ${what}`).optional());

const byteCount = (fallback: number) =>
  z.coerce
    .number("must be a number of bytes")
    .int("must be a whole number of bytes")
    .min(1, "must be at least 1 byte")
    .default(fallback);

const MiB = 1024 * 1024;

/**
 * How long a connection may wait, idle, for its client's next request: longer than the 60 s nginx and AWS's load
 * balancers keep their connections to the store idle. Were the store to close one first, a request the proxy sends on
 * it in that instant would fail, and its visitor get a 502; behind a proxy that waits longer, raise it above that.
 */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS = 72;

/** Node's timers take at most 2^31 - 1 ms (about 24.8 days): a longer one would fire after 1 ms, every 1 ms. */
const MAX_TIMER_SECONDS = 24 * 24 * 60 * 60;

const seconds = (fallback: number) =>
  z.coerce
    .number("must be a number of seconds")
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1 second")
    .max(MAX_TIMER_SECONDS, `must be at most ${MAX_TIMER_SECONDS} seconds (24 days)`)
    .default(fallback);

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce
      .number()
      .int("must be a whole number")
      .min(1, "must be a port number")
      .max(65535, "must be a port number")
      .default(3000),
    HOST: z.string().trim().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().trim().min(1, "must not be empty").default("./data"),
    DATABASE_URL: optionalUrl("a PostgreSQL URL like postgres://user:password@host:5432/database").refine(
      (value) => value === undefined || /^postgres(ql)?:\/\//.test(value),
      "must start with postgres:// or postgresql://",
    ),
    PUBLIC_URL: optionalUrl("the store's public URL, like https://shop.example.com").refine(
      (value) => value === undefined || /^https?:\/\/[^/]+\/?$/.test(value),
      "must be the store's address alone, http:// or https:// and a host, like https://shop.example.com",
    ),
    BLOG_URL: z
      .url("must be the blog site's URL, like https://blog.example.com")
      .default("https://blog.example.com"),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    ENCRYPTION_KEY: z
      .string()
      .regex(
        /^[A-Za-z0-9_-]{43}$/,
        "must be 32 random bytes in base64url (43 characters), e.g. from openssl rand -base64 32 | tr '+/' '-_' | tr -d '='",
      )
      .optional(),
    SMTP_URL: optionalUrl("an SMTP URL like smtp://user:password@mail.example.com:587").refine(
      (value) => value === undefined || /^smtps?:\/\//.test(value),
      "must start with smtp:// or smtps://",
    ),
    MAIL_FROM: z.string().trim().min(3).default("KeyHaven Tech Store <orders@example.com>"),
    STRIPE_SECRET_KEY: z.string().trim().startsWith("sk_", "must be a Stripe secret key (sk_...)").optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .trim()
      .startsWith("whsec_", "must be a Stripe webhook signing secret (whsec_...)")
      .optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    HEADERS_TIMEOUT_SECONDS: seconds(20),
    REQUEST_TIMEOUT_SECONDS: seconds(120),
    /** See DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS. */
    KEEP_ALIVE_TIMEOUT_SECONDS: seconds(DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS),
    /** How long a stop (SIGTERM, SIGINT) waits for requests in flight before it closes their connections. */
    SHUTDOWN_TIMEOUT_SECONDS: seconds(10),
    /** How often each process looks for unpaid orders past the hours the settings give them. */
    ORDER_EXPIRY_INTERVAL_SECONDS: seconds(60),
    /** How often each process looks for licence keys due a renewal reminder (the settings' days before expiry). */
    RENEWAL_REMINDER_INTERVAL_SECONDS: seconds(300),
    /** How often each process looks for products back in stock that visitors asked to be told about. */
    STOCK_ALERT_INTERVAL_SECONDS: seconds(60),
    /** How often each process looks for saved carts due their reminder. */
    SAVED_CART_REMINDER_INTERVAL_SECONDS: seconds(300),
    /** /healthz reports not ready when DATA_DIR's disk has less free space than this. */
    HEALTH_MIN_FREE_MB: z.coerce
      .number("must be a number of megabytes")
      .int("must be a whole number of megabytes")
      .min(0, "must not be negative")
      .default(100),
    /** Server processes on PostgreSQL (node:cluster); unset, one per core. The embedded database runs one. */
    WEB_CONCURRENCY: z.coerce
      .number("must be a number of processes")
      .int("must be a whole number of processes")
      .min(1, "must be at least 1")
      .max(256, "must be at most 256")
      .optional(),
    /** The full-page cache of anonymous public pages: on, or off (every page rendered afresh). */
    PAGE_CACHE: z.enum(["on", "off"], "must be on or off").default("on"),
    /** The most memory the full-page cache may take per process (MB). */
    PAGE_CACHE_MAX_MB: z.coerce
      .number("must be a number of megabytes")
      .int("must be a whole number of megabytes")
      .min(1, "must be at least 1")
      .max(65536, "must be at most 65536")
      .default(64),
    STORAGE_DRIVER: z
      .enum(
        ["local", "s3"],
        "must be local (files under DATA_DIR/storage) or s3 (S3-compatible object storage)",
      )
      .default("local"),
    STORAGE_MAX_OBJECT_BYTES: byteCount(10 * MiB),
    STORAGE_PRODUCTS_QUOTA_BYTES: byteCount(2048 * MiB),
    STORAGE_UPLOADS_QUOTA_BYTES: byteCount(1024 * MiB),
    STORAGE_UPLOADS_USER_QUOTA_BYTES: byteCount(100 * MiB),
    S3_BUCKET: z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be an S3 bucket name, like storefront-files")
      .optional(),
    S3_REGION: z.string().trim().min(1, "must be a region, like us-east-1 (or auto)").optional(),
    S3_ENDPOINT: optionalUrl("the object store's URL, like https://s3.example.com (leave unset for AWS)"),
    S3_ACCESS_KEY_ID: z.string().trim().min(1, "must not be empty").optional(),
    S3_SECRET_ACCESS_KEY: z.string().trim().min(1, "must not be empty").optional(),
    S3_FORCE_PATH_STYLE: z
      .stringbool("must be true or false (true for MinIO and most self-hosted stores)")
      .default(false),
  })
  .superRefine((env, context) => {
    if (env.HEADERS_TIMEOUT_SECONDS > env.REQUEST_TIMEOUT_SECONDS) {
      context.addIssue({
        code: "custom",
        path: ["HEADERS_TIMEOUT_SECONDS"],
        message: "must not be longer than REQUEST_TIMEOUT_SECONDS (the headers are part of the request)",
      });
    }
    if (env.STORAGE_DRIVER !== "s3") return;
    const missing = (name: keyof typeof env, message: string) =>
      env[name] === undefined && context.addIssue({ code: "custom", path: [name], message });
    missing("S3_BUCKET", "is required when STORAGE_DRIVER=s3");
    missing("S3_REGION", "is required when STORAGE_DRIVER=s3 (use the store's region, or auto)");
    if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
      const name = env.S3_ACCESS_KEY_ID === undefined ? "S3_ACCESS_KEY_ID" : "S3_SECRET_ACCESS_KEY";
      context.addIssue({
        code: "custom",
        path: [name],
        message:
          "must be set together with the other S3 key (or leave both unset to use the AWS credential chain)",
      });
    }
  });

export type Env = Omit<
  z.infer<typeof envSchema>,
  "PUBLIC_URL" | "AUTH_SECRET" | "ENCRYPTION_KEY" | "DATA_DIR"
> & {
  DATA_DIR: string;
  /** The store's address for links that leave the page (e-mails, payment returns): PUBLIC_URL or the local one. */
  PUBLIC_URL: string;
  /**
   * PUBLIC_URL was set: the store answers at that address only (GETs to another host are redirected there).
   * Unset, the store accepts its own requests at whatever address it was reached on.
   */
  PUBLIC_URL_SET: boolean;
  AUTH_SECRET: string;
  ENCRYPTION_KEY: string;
};

/** Parses the environment once at boot; every problem is reported by variable name. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const secrets = env.AUTH_SECRET && env.ENCRYPTION_KEY ? undefined : readOrCreateSecrets(dataDir);
  return {
    ...env,
    DATA_DIR: dataDir,
    PUBLIC_URL: (env.PUBLIC_URL ?? localUrl(env.HOST, env.PORT)).replace(/\/+$/, ""),
    PUBLIC_URL_SET: env.PUBLIC_URL !== undefined,
    AUTH_SECRET: env.AUTH_SECRET ?? secrets!.authSecret,
    ENCRYPTION_KEY: env.ENCRYPTION_KEY ?? secrets!.encryptionKey,
  };
}

/** Where the store answers on this machine: localhost when it listens on every interface, else that interface. */
function localUrl(host: string, port: number): string {
  const everywhere = ["0.0.0.0", "::", "[::]"].includes(host);
  const name = everywhere ? "localhost" : host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

type Secrets = { authSecret: string; encryptionKey: string };

/** Unless given, secrets are generated once and kept in DATA_DIR, so sessions and encrypted keys survive restarts. */
function readOrCreateSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, "secrets.json");
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Partial<Secrets>;
    if (typeof stored.authSecret !== "string" || stored.authSecret.length < 32) {
      throw new ConfigError(
        `${file} is damaged: restore it from a backup (licence keys cannot be read without it), or set AUTH_SECRET and ENCRYPTION_KEY.`,
      );
    }
    if (typeof stored.encryptionKey === "string" && stored.encryptionKey.length === 43) {
      return { authSecret: stored.authSecret, encryptionKey: stored.encryptionKey };
    }
    // Written before licence keys were encrypted: add the key, keep the rest.
    const upgraded = { authSecret: stored.authSecret, encryptionKey: randomBytes(32).toString("base64url") };
    writeFileSync(file, JSON.stringify(upgraded, null, 2), { mode: 0o600 });
    return upgraded;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secrets: Secrets = {
    authSecret: randomBytes(32).toString("base64url"),
    encryptionKey: randomBytes(32).toString("base64url"),
  };
  try {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readOrCreateSecrets(dataDir);
    throw error;
  }
  return secrets;
}
