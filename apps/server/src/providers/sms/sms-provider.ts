import type { Outbox } from "../outbox/outbox.ts";

export type SmsMessage = { to: string; body: string };

/** Sends a text message. The telephony providers (sandbox carrier, Twilio) implement this too. */
export type SmsProvider = { kind: string; send(message: SmsMessage): Promise<void> };

export function outboxSmsProvider(outbox: Outbox): SmsProvider {
  return {
    kind: "outbox",
    send: (message) => outbox.deliver({ channel: "sms", to: message.to, body: message.body }),
  };
}
