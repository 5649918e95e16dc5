import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * Every level of the hierarchy is an account: partner > reseller > organization > agent. The ancestor
 * ids are kept on the row (partner_id, reseller_id, organization_id) so "is this account below that
 * one" is one indexed comparison and the data can later be sharded by organisation.
 */
export const accounts = pgTable(
  "accounts",
  {
    id: serial("id").primaryKey(),
    accountType: text("account_type").$type<"partner" | "reseller" | "organization" | "agent">().notNull(),
    parentId: integer("parent_id"),
    partnerId: integer("partner_id"),
    resellerId: integer("reseller_id"),
    /** For an organisation its own id; for an agent account its organisation. */
    organizationId: integer("organization_id"),
    username: text("username").notNull(),
    email: text("email"),
    phoneNumber: text("phone_number"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    socialLinks: jsonb("social_links").$type<Record<string, string>>().notNull().default({}),
    socialLinksPosition: text("social_links_position"),
    switchboardPhoneNumber: text("switchboard_phone_number"),
    premium: boolean("premium").notNull().default(false),
    smsEnabled: boolean("sms_enabled").notNull().default(false),
    externalAccountId: text("external_account_id"),
    externalBillingId: text("external_billing_id"),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    disabledDetails: text("disabled_details"),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("accounts_username_key").on(sql`lower(${t.username})`),
    index("accounts_parent_idx").on(t.parentId),
    index("accounts_partner_idx").on(t.partnerId, t.accountType),
    index("accounts_reseller_idx").on(t.resellerId, t.accountType),
    index("accounts_organization_idx").on(t.organizationId, t.accountType),
  ],
);

/** People who sign in. A super admin is a flag on a user. */
export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email"),
    phoneNumber: text("phone_number"),
    fullName: text("full_name"),
    superAdmin: boolean("super_admin").notNull().default(false),
    /** Anonymous session users (allocateTempUserSession) until they sign up. */
    temporary: boolean("temporary").notNull().default(false),
    /** The address an anonymous session was allocated from (the per-address limit counts these). */
    createdIp: text("created_ip"),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    phoneVerifiedAt: timestamp("phone_verified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
    uniqueIndex("users_phone_key").on(t.phoneNumber),
    index("users_created_ip_idx").on(t.createdIp, t.createdAt).where(sql`${t.createdIp} is not null`),
    index("users_temporary_idx").on(t.createdAt).where(sql`${t.temporary}`),
  ],
);

/** Which accounts a user belongs to, as owner or admin. */
export const memberships = pgTable(
  "memberships",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    role: text("role").$type<"owner" | "admin">().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.accountId] }), index("memberships_account_idx").on(t.accountId)],
);
