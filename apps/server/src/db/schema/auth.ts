import {
  type AnyPgColumn,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts.ts";

/** Session and one-time tokens. Only a SHA-256 hash of each token is stored. */
export const authTokens = pgTable(
  "auth_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The account the token signs in to. */
    accountId: integer("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"session" | "oneTime" | "api">().notNull(),
    /**
     * For a one-time token: the session it was made from. Logging that session out ends the one-time
     * tokens it made, and one only works while its session is open.
     */
    sessionId: integer("session_id").references((): AnyPgColumn => authTokens.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("auth_tokens_hash_key").on(t.tokenHash),
    index("auth_tokens_user_idx").on(t.userId),
    index("auth_tokens_session_idx").on(t.sessionId),
  ],
);

/** Six-digit codes sent by e-mail or SMS; stored hashed, single use, expiring, with a try counter. */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: serial("id").primaryKey(),
    purpose: text("purpose")
      .$type<"signup" | "signinEmail" | "signinPhone" | "verifyEmail" | "verifyPhone">()
      .notNull(),
    /** Normalised e-mail address or phone number the code was sent to. */
    address: text("address").notNull(),
    /** The signed-in user a verification is for (e-mail or phone confirmation). */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** What the code completes: sign-up details, the user to verify... */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    requesterIp: text("requester_ip"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [
    index("verification_codes_address_idx").on(t.address, t.purpose, t.createdAt),
    index("verification_codes_ip_idx").on(t.requesterIp, t.createdAt),
    index("verification_codes_user_idx").on(t.userId, t.purpose),
  ],
);
