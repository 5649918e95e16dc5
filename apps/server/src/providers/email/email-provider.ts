import nodemailer from "nodemailer";
import type { Outbox } from "../outbox/outbox.ts";

export type EmailMessage = { to: string; subject: string; text: string };

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
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}
