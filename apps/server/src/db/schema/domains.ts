import { sql } from "drizzle-orm";
import {
  boolean,
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

/** White-label settings of a domain (product spec §3 Domain profile). */
export type DomainSettingsColumn = {
  supportUrl?: string | null;
  smsMessaging?: boolean;
  allowEmbeds?: boolean;
  appScripts?: string[];
};

/**
 * A partner's white-label hosts. The web app looks its own host up at start and, on a white-label host,
 * shows the partner's name and image and applies these settings. Hosts are stored lower-case.
 */
export const domains = pgTable(
  "domains",
  {
    id: serial("id").primaryKey(),
    /** The partner account the host belongs to. */
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    host: text("host").notNull(),
    name: text("name"),
    image: text("image"),
    settings: jsonb("settings").$type<DomainSettingsColumn>().notNull().default({}),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("domains_account_idx").on(t.accountId),
    uniqueIndex("domains_host_key").on(t.host),
    uniqueIndex("domains_default_key").on(t.accountId).where(sql`${t.isDefault}`),
  ],
);
