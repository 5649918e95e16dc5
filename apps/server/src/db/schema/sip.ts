import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";

/** An organisation's SIP allow-list: addresses and CIDR ranges whose INVITEs the SIP edge accepts. */
export const sipAllowlist = pgTable(
  "sip_allowlist",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** As typed, normalised (`203.0.113.7` or `203.0.113.0/24`). */
    ip: text("ip").notNull(),
    label: text("label").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("sip_allowlist_org_ip_key").on(t.orgId, t.ip)],
);

/** Where an organisation's outbound calls go: its own trunks. The password is encrypted with the server key. */
export const sipOutboundRoutes = pgTable(
  "sip_outbound_routes",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    host: text("host").notNull(),
    port: integer("port").notNull(),
    transport: text("transport").$type<"udp" | "tcp">().notNull(),
    username: text("username"),
    passwordEncrypted: text("password_encrypted"),
    prefixes: jsonb("prefixes").$type<string[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sip_outbound_routes_org_idx").on(t.orgId, t.id)],
);

/** One registration per organisation of our server, as a user agent, to its PBX; its state is kept live. */
export const sipRegistrations = pgTable("sip_registrations", {
  orgId: integer("org_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  agentId: integer("agent_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  host: text("host").notNull(),
  port: integer("port").notNull(),
  transport: text("transport").$type<"udp" | "tcp">().notNull(),
  username: text("username").notNull(),
  authUsername: text("auth_username"),
  domain: text("domain"),
  passwordEncrypted: text("password_encrypted"),
  expires: integer("expires").notNull(),
  state: text("state").$type<"registering" | "registered" | "failed" | "stopped">().notNull(),
  lastError: text("last_error"),
  registeredAt: timestamp("registered_at", { withTimezone: true }),
  expiresAt: timestamp("expires_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every SIP message of recent calls, secrets redacted, for the SIP captures dialog and its text and pcap
 * downloads. `org_id` is null when no organisation could be named (a refused source dialling nobody's
 * agent). Purged after the retention period by the `sip-captures-purge` job.
 */
export const sipCaptureMessages = pgTable(
  "sip_capture_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orgId: integer("org_id").references(() => accounts.id, { onDelete: "cascade" }),
    callId: text("call_id").notNull(),
    at: timestamp("at", { withTimezone: true, precision: 3 }).notNull(),
    direction: text("direction").$type<"in" | "out">().notNull(),
    transport: text("transport").$type<"udp" | "tcp">().notNull(),
    localAddress: text("local_address").notNull(),
    localPort: integer("local_port").notNull(),
    remoteAddress: text("remote_address").notNull(),
    remotePort: integer("remote_port").notNull(),
    firstLine: text("first_line").notNull(),
    /** Set on the message that answered an INVITE from a refused source (403 at the edge). */
    refused: integer("refused").notNull().default(0),
    message: text("message").notNull(),
  },
  (t) => [
    index("sip_capture_messages_org_call_idx").on(t.orgId, t.callId, t.id),
    index("sip_capture_messages_at_idx").on(t.at),
  ],
);
