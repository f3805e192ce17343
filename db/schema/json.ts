import { customType } from "drizzle-orm/pg-core";

/**
 * A jsonb column whose value reads back exactly as it was written. Both drivers (node-postgres and PGlite) already
 * decode jsonb; drizzle's own jsonb column decodes a string a second time, so a stored text that looks like JSON came
 * back changed: the account number "987654321" read back as the number 987654321. Every jsonb column uses this one.
 */
export const jsonb = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => "jsonb",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => value,
});
