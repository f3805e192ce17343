/**
 * The store cannot start as configured: the message says what to fix (a variable, a file in DATA_DIR), so entry
 * points print it alone, without a stack.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
}
