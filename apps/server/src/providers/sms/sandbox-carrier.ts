import { randomBytes } from "node:crypto";
import { and, eq, gte } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { carrierMessages } from "../../db/schema/index.ts";
import type { Outbox } from "../outbox/outbox.ts";
import type { SmsProvider } from "./sms-provider.ts";

/** The sender of sandbox messages that name no number (sign-in codes, the agent's send-SMS tool). */
export const SANDBOX_DEFAULT_SENDER = "+15005550006";

export type HandsetDelivery = { id: number; from: string; to: string };

export type SandboxCarrier = SmsProvider & {
  kind: "sandbox";
  /** Called after each message reaches a simulated handset (the phone simulator refreshes). */
  onDelivered(listener: (delivery: HandsetDelivery) => void): void;
};

export const newCarrierId = (prefix: string) => `${prefix}${randomBytes(16).toString("hex")}`;

/**
 * The sandbox carrier, the default telephony provider: it delivers every outbound text message to a
 * simulated handset (kept in carrier_messages, read by the phone simulator under Developers) and also
 * to the dev outbox, so sign-in codes still show at /api/dev/outbox. Inbound messages come from the phone
 * simulator and take the same path as a real carrier's webhook (carrier.service receiveInbound).
 */
export function sandboxCarrier(db: Database, outbox: Outbox): SandboxCarrier {
  const listeners: ((delivery: HandsetDelivery) => void)[] = [];
  return {
    kind: "sandbox",
    onDelivered(listener) {
      listeners.push(listener);
    },
    async send(message) {
      const id = newCarrierId("SB");
      const from = message.from ?? SANDBOX_DEFAULT_SENDER;
      const [row] = await db
        .insert(carrierMessages)
        .values({
          provider: "sandbox",
          direction: "outbound",
          fromAddress: from,
          toAddress: message.to,
          body: message.body,
          media: message.media ?? [],
          status: "delivered",
          externalId: id,
        })
        .returning({ id: carrierMessages.id });
      await outbox.deliver({ channel: "sms", to: message.to, body: message.body });
      if (row) for (const listener of listeners) listener({ id: row.id, from, to: message.to });
      return { id, status: "delivered" };
    },
    // The handsets are rows of this database: a message is there, or it never left.
    async findSent(message, since) {
      const [row] = await db
        .select({ id: carrierMessages.externalId })
        .from(carrierMessages)
        .where(
          and(
            eq(carrierMessages.provider, "sandbox"),
            eq(carrierMessages.direction, "outbound"),
            eq(carrierMessages.toAddress, message.to),
            eq(carrierMessages.fromAddress, message.from ?? SANDBOX_DEFAULT_SENDER),
            eq(carrierMessages.body, message.body),
            gte(carrierMessages.createdAt, since),
          ),
        )
        .limit(1);
      return row ? { id: row.id, status: "delivered" } : null;
    },
  };
}
