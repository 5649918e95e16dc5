import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts.ts";

/**
 * What a business shows the world (issue 22): the ordered links of its public link page, each click on
 * them, notifications for its people, referral invites and visits, mobile check-ins and support requests.
 */

/** A link of an account's public page, in `position` order, with its running click count. */
export const profileLinks = pgTable(
  "profile_links",
  {
    id: serial("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    title: text("title").notNull(),
    url: text("url").notNull(),
    clicks: integer("clicks").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("profile_links_account_idx").on(t.accountId, t.position)],
);

/** One visitor's click on a link (the owner's statistics by day). */
export const profileLinkClicks = pgTable(
  "profile_link_clicks",
  {
    id: serial("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    linkId: integer("link_id")
      .notNull()
      .references(() => profileLinks.id, { onDelete: "cascade" }),
    clickedAt: timestamp("clicked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("profile_link_clicks_account_idx").on(t.accountId, t.clickedAt)],
);

export type NotificationKind =
  | "message"
  | "missedCall"
  | "taskFinished"
  | "lowBalance"
  | "webhookFailing"
  | "support";

/** A notification for the people of an organisation (or, with no organisation, for the super admins). */
export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    /** The organisation whose people see it; null: the platform's super admins. */
    orgId: integer("org_id").references(() => accounts.id, { onDelete: "cascade" }),
    agentId: integer("agent_id"),
    kind: text("kind").$type<NotificationKind>().notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    /** Where it leads in the app (a path under /app). */
    link: text("link"),
    /** Messages of one room fold into one notification until it is cleared. */
    groupKey: text("group_key"),
    count: integer("count").notNull().default(1),
    clearedAt: timestamp("cleared_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("notifications_org_open_idx").on(t.orgId, t.updatedAt).where(sql`${t.clearedAt} is null`),
    index("notifications_group_idx").on(t.orgId, t.groupKey).where(sql`${t.clearedAt} is null`),
  ],
);

/** Someone invited to the product with the inviter's referral link (POST /api/v1/sendInvite). */
export const referralInvites = pgTable(
  "referral_invites",
  {
    id: serial("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    target: text("target").notNull(),
    kind: text("kind").$type<"email" | "phone">().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("referral_invites_account_idx").on(t.accountId, t.createdAt)],
);

/** A visit that came through a referral link (POST /api/v1/ipCorrelator: page, ref). */
export const referralVisits = pgTable(
  "referral_visits",
  {
    id: serial("id").primaryKey(),
    ref: text("ref").notNull(),
    page: text("page").notNull(),
    ip: text("ip").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("referral_visits_ref_idx").on(t.ref, t.createdAt), index("referral_visits_ip_idx").on(t.ip)],
);

/** The mobile app's check-ins (POST /api/v1/mobileCheckIn): its version, platform and push token. */
export const checkIns = pgTable(
  "check_ins",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: integer("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("check_ins_user_kind_idx").on(t.userId, t.kind, t.createdAt)],
);
