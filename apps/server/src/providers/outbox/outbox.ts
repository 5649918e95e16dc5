import { desc } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { outboxMessages } from "../../db/schema/index.ts";

export type OutboxChannel = "email" | "sms";
export type OutboxMessage = { channel: OutboxChannel; to: string; subject?: string; body: string };

/**
 * The dev outbox: every message the server would send is stored (listed at GET /api/dev/outbox) and
 * printed to the console, so the product works end to end with no mail or SMS service.
 */
export function createOutbox(db: Database, print: (text: string) => void = (text) => console.log(text)) {
  return {
    async deliver(message: OutboxMessage): Promise<void> {
      await db.insert(outboxMessages).values({
        channel: message.channel,
        toAddress: message.to,
        subject: message.subject ?? null,
        body: message.body,
      });
      const heading = message.subject ? ` — ${message.subject}` : "";
      print(`[dev outbox] ${message.channel} to ${message.to}${heading}\n${message.body}\n`);
    },
    async list(limit: number) {
      const rows = await db.select().from(outboxMessages).orderBy(desc(outboxMessages.id)).limit(limit);
      return rows.map((row) => ({
        id: row.id,
        channel: row.channel,
        to: row.toAddress,
        subject: row.subject,
        body: row.body,
        time: row.createdAt.toISOString(),
      }));
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
