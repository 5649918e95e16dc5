import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";

/** An agent's configuration (the "campaign" of product spec §3) as stored: free jsonb, checked by the API. */
export type AgentConfigColumn = Record<string, unknown>;

/**
 * The staging and production copy of each agent account's configuration. `revision` grows with every
 * change of a copy: a save names the revision it was based on, and a stale one is refused (409).
 */
export const agentConfigs = pgTable(
  "agent_configs",
  {
    orgId: integer("org_id").notNull(),
    agentAccountId: integer("agent_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    stage: text("stage").$type<"staging" | "production">().notNull(),
    config: jsonb("config").$type<AgentConfigColumn>().notNull().default({}),
    revision: integer("revision").notNull().default(1),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agentAccountId, t.stage] }),
    index("agent_configs_org_idx").on(t.orgId, t.agentAccountId),
  ],
);

/** Immutable-by-default snapshots of an agent's whole configuration, titled. */
export const agentVersions = pgTable(
  "agent_versions",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    agentAccountId: integer("agent_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    source: text("source").notNull(),
    snapshot: jsonb("snapshot").$type<AgentConfigColumn>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("agent_versions_org_idx").on(t.orgId, t.agentAccountId, t.createdAt)],
);

/**
 * Agent templates: owned by a partner, reseller or organisation account (visible to it and below), or
 * global built-ins (owner null). `body` holds templateFields, templateIntegrations, actions, apps,
 * instructions and the rest of the configuration an agent starts from.
 */
export const agentTemplates = pgTable(
  "agent_templates",
  {
    id: serial("id").primaryKey(),
    ownerAccountId: integer("owner_account_id").references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    body: jsonb("body").$type<AgentConfigColumn>().notNull().default({}),
    revision: integer("revision").notNull().default(1),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("agent_templates_owner_idx").on(t.ownerAccountId)],
);

/** Apps installed on an account (organisation or agent), with their data (auth parameters and settings). */
export const installedApps = pgTable(
  "installed_apps",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    orgId: integer("org_id"),
    appId: text("app_id").notNull(),
    appVersion: text("app_version").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    installedAt: timestamp("installed_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.appId, t.appVersion] })],
);
