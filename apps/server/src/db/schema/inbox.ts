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
import { conversationMessages, rooms } from "./conversations.ts";

/**
 * Inbox state around the runtime's rooms and messages (issue 7): what each user has read, reactions,
 * blocked senders, outside addresses the organisation writes to, contacts and the carrier's own record of
 * every text message it carried.
 */

/** Read state per user and room: messages from outside after `lastReadMessageId` are unread. */
export const roomReads = pgTable(
  "room_reads",
  {
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    orgId: integer("org_id").notNull(),
    lastReadMessageId: integer("last_read_message_id").notNull().default(0),
    /** Marked unread by the user (stays unread until opened again). */
    markedUnread: boolean("marked_unread").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.roomId, t.userId] }),
    // The caller's read marks of an organisation with everything the inbox's unread filter compares, so
    // the list's total with that filter is an index-only scan.
    index("room_reads_org_user_read_idx").on(
      t.orgId,
      t.userId,
      t.roomId,
      t.lastReadMessageId,
      t.markedUnread,
    ),
  ],
);

export const messageReactions = pgTable(
  "message_reactions",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    messageId: integer("message_id")
      .notNull()
      .references(() => conversationMessages.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    reaction: text("reaction").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("message_reactions_key").on(t.messageId, t.userId, t.reaction),
    index("message_reactions_room_idx").on(t.orgId, t.roomId),
  ],
);

/** Outside addresses an organisation blocked: their messages are kept in Junk and never answered. */
export const blockedAddresses = pgTable(
  "blocked_addresses",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    address: text("address").notNull(),
    blockedByUserId: integer("blocked_by_user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("blocked_addresses_key").on(t.orgId, t.address)],
);

/** An outside address (phone number or e-mail) the organisation starts conversations with. */
export const externalProfiles = pgTable(
  "external_profiles",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    address: text("address").notNull(),
    kind: text("kind").$type<"phone" | "email">().notNull(),
    /** `ext-<id>`: how the address appears among a room's users. */
    username: text("username").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("external_profiles_key").on(t.orgId, t.address),
    uniqueIndex("external_profiles_username_key").on(t.username),
  ],
);

/** A contact: free nested fields (`data`), the name shown, and the addresses it is matched by. */
export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    displayName: text("display_name").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("contacts_org_name_idx").on(t.orgId, t.displayName)],
);

/** The normalised phone numbers and e-mails of a contact, so rooms find their contact by address. */
export const contactAddresses = pgTable(
  "contact_addresses",
  {
    orgId: integer("org_id").notNull(),
    address: text("address").notNull(),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.address, t.contactId] }),
    index("contact_addresses_contact_idx").on(t.contactId),
  ],
);

/**
 * Every text message a carrier carried for us, as the carrier saw it: the sandbox carrier's simulated
 * handsets read their messages here, and a webhook delivered twice (a replay) finds its id already taken.
 */
export const carrierMessages = pgTable(
  "carrier_messages",
  {
    id: serial("id").primaryKey(),
    provider: text("provider").$type<"sandbox" | "twilio">().notNull(),
    direction: text("direction").$type<"inbound" | "outbound">().notNull(),
    orgId: integer("org_id"),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    body: text("body").notNull().default(""),
    media: jsonb("media").$type<string[]>().notNull().default([]),
    status: text("status").notNull(),
    externalId: text("external_id").notNull(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("carrier_messages_external_key").on(t.provider, t.externalId),
    index("carrier_messages_to_idx").on(t.toAddress, t.id),
    index("carrier_messages_from_idx").on(t.fromAddress, t.id),
  ],
);
