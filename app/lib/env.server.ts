import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const optionalUrl = (what: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(z.url(`must be ${what}`).optional());

const envSchema = z.object({
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
  PUBLIC_URL: optionalUrl("the store's public URL, like https://shop.example.com"),
  BLOG_URL: z
    .url("must be the blog site's URL, like https://blog.example.com")
    .default("https://blog.example.com"),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Env = Omit<z.infer<typeof envSchema>, "PUBLIC_URL" | "AUTH_SECRET" | "DATA_DIR"> & {
  DATA_DIR: string;
  PUBLIC_URL: string;
  AUTH_SECRET: string;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment once at boot; every problem is reported by variable name. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const secrets = env.AUTH_SECRET ? undefined : readOrCreateSecrets(dataDir);
  return {
    ...env,
    DATA_DIR: dataDir,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    AUTH_SECRET: env.AUTH_SECRET ?? secrets!.authSecret,
  };
}

type Secrets = { authSecret: string };

/** For the embedded default, secrets are generated once and kept in DATA_DIR so sessions survive restarts. */
function readOrCreateSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, "secrets.json");
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Partial<Secrets>;
    if (typeof stored.authSecret === "string" && stored.authSecret.length >= 32)
      return { authSecret: stored.authSecret };
    throw new ConfigError(`${file} is damaged: remove it to generate new secrets, or set AUTH_SECRET.`);
  }
  mkdirSync(dataDir, { recursive: true });
  const secrets: Secrets = { authSecret: randomBytes(32).toString("base64url") };
  try {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readOrCreateSecrets(dataDir);
    throw error;
  }
  return secrets;
}
