import type { Outbox } from "../outbox/outbox.ts";

/** A text message: `from` is the sending number (an agent's), else the provider's default sender. */
export type SmsMessage = { to: string; body: string; from?: string; media?: string[] };

/** What the carrier answered for a message it accepted: its id and state. */
export type SmsSent = { id: string; status: "queued" | "sent" | "delivered" };

/**
 * Sends a text message. The telephony providers (sandbox carrier, Twilio) answer the carrier's id and state;
 * providers without one (the dev outbox) answer nothing.
 */
export type SmsProvider = {
  kind: string;
  // biome-ignore lint/suspicious/noConfusingVoidType: a provider without a carrier id answers nothing.
  send(message: SmsMessage): Promise<SmsSent | void>;
  /**
   * After a send that its server never saw end (the process died while the carrier was asked): did the
   * carrier take this message at or after `since`? Its id and state, or null when it certainly did not.
   * Only a carrier that can tell for sure has it: carriers take no idempotency key (Twilio has none), so
   * without it such a message counts as possibly sent and is never sent again.
   */
  findSent?(message: SmsMessage, since: Date): Promise<SmsSent | null>;
};

export function outboxSmsProvider(outbox: Outbox): SmsProvider {
  return {
    kind: "outbox",
    send: async (message) => {
      await outbox.deliver({ channel: "sms", to: message.to, body: message.body });
    },
  };
}
