import { index, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** Every e-mail and SMS the server sends through the dev outbox provider. */
export const outboxMessages = pgTable(
  "outbox_messages",
  {
    id: serial("id").primaryKey(),
    channel: text("channel").$type<"email" | "sms">().notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject"),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("outbox_messages_created_idx").on(t.createdAt)],
);
