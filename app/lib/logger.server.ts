import pino from "pino";

export type Logger = pino.Logger;

/**
 * Fields that never reach a log line, wherever they sit in a logged object: passwords, tokens, keys, secret links,
 * card and bank data. pino replaces their values with "[redacted]".
 */
const SECRET_FIELDS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "accessToken",
  "refreshToken",
  "idToken",
  "secret",
  "key",
  "keys",
  "licenceKey",
  "licenseKey",
  "cardNumber",
  "card",
  "cvc",
  "iban",
  "accountNumber",
  "authorization",
  "cookie",
  "link",
  "params",
  "receipt",
];
export const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  "req.headers.cookie",
  "req.headers.authorization",
  'headers["set-cookie"]',
];

/**
 * A URL as it may be logged: the path, and the names of its query parameters with their values dropped
 * (a secret order link carries its key there, a reset link its token).
 */
export function safeUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const names = [...new URLSearchParams(url.slice(at + 1)).keys()];
  return `${url.slice(0, at)}?${names.map((name) => `${encodeURIComponent(name)}=…`).join("&")}`;
}

/** Drops what a failed query carries of its values: drizzle writes them into the message after "params:". */
const withoutParams = (text: string) =>
  text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, "\nparams: [redacted]");

/** Error fields that may hold values of a query (pg's `detail` names the duplicate key's value, for instance). */
const DROPPED_ERROR_FIELDS = new Set(["params", "detail", "where", "internalQuery", "parameters", "values"]);

/**
 * pino's error serializer without the values of a failed query: drizzle's DrizzleQueryError carries them in
 * `params` and in its message, pg's errors in `detail` and `where`. Causes are serialized the same way.
 */
export function safeError(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return withoutParams(value);
  if (!(value instanceof Error) || depth > 4) return value;
  const serialized = pino.stdSerializers.err(value) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [field, fieldValue] of Object.entries(serialized)) {
    if (DROPPED_ERROR_FIELDS.has(field)) continue;
    if (field === "message" || field === "stack") out[field] = withoutParams(String(fieldValue));
    else if (field === "cause") continue;
    else if (field === "query" && typeof fieldValue === "string") out[field] = fieldValue.slice(0, 500);
    else out[field] = fieldValue;
  }
  if (value.cause !== undefined) out.cause = safeError(value.cause, depth + 1);
  return out;
}

export const loggerOptions: pino.LoggerOptions = {
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: { paths: REDACT_PATHS, censor: "[redacted]" },
  serializers: { err: safeError, error: safeError },
};

export function createLogger(level: string = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({ ...loggerOptions, level });
}

/**
 * The logger of the request lines (`{ method, url, status, ms }`, the address through `safeUrl`): nothing in them to
 * redact, and a line passed through the redaction paths costs about 25 µs (they are parsed and the line copied at
 * each call), 1 to 2% of an uncached page's render. What the child is given besides is not redacted either.
 */
export function requestLogger(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
}

/**
 * Resolves once what the logger was given is handed to the output (pino writes to stdout asynchronously; what is
 * still queued at exit it writes synchronously), or after `ms` whatever happens to the output: a process's last
 * lines, before it exits.
 */
export function flushLogs(logger: Logger, ms = 1000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    logger.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
