import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** The spec's activity statuses of a user record. */
export const ACTIVITY_STATUSES = ["Active", "InActive"] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];
/**
 * A customer (`user`), the owner (`admin`, the value every admin had before staff roles) or staff of one area
 * (`orders`, `content`, `support`; app/modules/accounts/staff-roles.ts says what each may use).
 */
export const USER_ROLES = ["user", "admin", "orders", "content", "support"] as const;
export type UserRole = (typeof USER_ROLES)[number];

const stamp = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Customers and admins. better-auth owns the first columns (the admin plugin adds role and the ban fields);
 * the spec's user record adds status, lastLogin, lastLogout and timestamp, written only by setActivity.
 */
export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    createdAt: stamp("created_at").notNull().defaultNow(),
    updatedAt: stamp("updated_at")
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
    role: text("role").$type<UserRole>().default("user"),
    banned: boolean("banned").default(false),
    banReason: text("ban_reason"),
    banExpires: stamp("ban_expires"),
    status: text("status").$type<ActivityStatus>().notNull().default("InActive"),
    lastLogin: stamp("last_login"),
    lastLogout: stamp("last_logout"),
    /** When the activity status last changed (the spec's `timestamp`). */
    timestamp: stamp("activity_at"),
    /** Set by `admin:create` with a temporary password: the account must choose its own before using the admin. */
    mustChangePassword: boolean("must_change_password").notNull().default(false),
  },
  (table) => [
    check("user_status_check", sql`${table.status} in ('Active', 'InActive')`),
    check(
      "user_role_check",
      sql`${table.role} is null or ${table.role} in ('user', 'admin', 'orders', 'content', 'support')`,
    ),
    // The admin's users list: search anywhere in the name or e-mail, sort by when they joined or last signed in.
    index("user_email_trgm_idx").using("gin", table.email.op("gin_trgm_ops")),
    index("user_name_trgm_idx").using("gin", table.name.op("gin_trgm_ops")),
    index("user_created_idx").on(table.createdAt),
    index("user_last_login_idx").on(table.lastLogin),
  ],
);

/** Signed-in sessions: the cookie holds the signed token; signing out deletes the row. */
export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: stamp("expires_at").notNull(),
    token: text("token").notNull().unique(),
    createdAt: stamp("created_at").notNull().defaultNow(),
    updatedAt: stamp("updated_at")
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    impersonatedBy: text("impersonated_by"),
  },
  (table) => [index("session_user_idx").on(table.userId)],
);

/** How a user signs in; for e-mail and password, the scrypt hash of the password. */
export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: stamp("access_token_expires_at"),
    refreshTokenExpiresAt: stamp("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: stamp("created_at").notNull().defaultNow(),
    updatedAt: stamp("updated_at")
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [index("account_user_idx").on(table.userId)],
);

/** One-time tokens: password resets (used once, then deleted) and e-mail verification. */
export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: stamp("expires_at").notNull(),
    createdAt: stamp("created_at").notNull().defaultNow(),
    updatedAt: stamp("updated_at")
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [index("verification_identifier_idx").on(table.identifier)],
);

/** better-auth's rate-limit counters, in the database so every server process shares them. */
export const rateLimit = pgTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/** A customer's address book; the default address prefills the checkout. */
export const addresses = pgTable(
  "addresses",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    line1: text("line1").notNull(),
    line2: text("line2").notNull().default(""),
    city: text("city").notNull(),
    region: text("region").notNull().default(""),
    postalCode: text("postal_code").notNull(),
    country: text("country").notNull(),
    phone: text("phone").notNull().default(""),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: stamp("created_at").notNull().defaultNow(),
    updatedAt: stamp("updated_at").notNull().defaultNow(),
  },
  (table) => [
    index("addresses_user_idx").on(table.userId, table.createdAt),
    uniqueIndex("addresses_one_default_idx")
      .on(table.userId)
      .where(sql`${table.isDefault}`),
  ],
);

export type User = typeof user.$inferSelect;
export type SavedAddress = typeof addresses.$inferSelect;
