import nodemailer from "nodemailer";
import type { Outbox } from "../outbox/outbox.ts";

/** An e-mail; `fromName` replaces the display name of EMAIL_FROM (a white-label partner's brand). */
export type EmailMessage = { to: string; subject: string; text: string; fromName?: string };

/** The address part of `Name <address>` (or the whole value when it is a bare address). */
function senderAddress(from: string): string {
  return /<([^>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim();
}

export type EmailProvider = { kind: "outbox" | "smtp"; send(message: EmailMessage): Promise<void> };

export function outboxEmailProvider(outbox: Outbox): EmailProvider {
  return {
    kind: "outbox",
    send: (message) =>
      outbox.deliver({ channel: "email", to: message.to, subject: message.subject, body: message.text }),
  };
}

/** Real e-mail through an SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465). */
export function smtpEmailProvider(smtpUrl: string, from: string): EmailProvider {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: "smtp",
    async send(message) {
      await transport.sendMail({
        from: message.fromName ? { name: message.fromName, address: senderAddress(from) } : from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}
