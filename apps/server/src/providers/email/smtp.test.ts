import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer } from "../../../test/smtp-server.ts";
import { smtpEmailProvider } from "./email-provider.ts";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => {
  smtp.server.close();
});

describe("SMTP e-mail provider", () => {
  it("delivers a message to the SMTP server of SMTP_URL", async () => {
    const provider = smtpEmailProvider(
      `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`,
      "Switchboard <no-reply@example.com>",
    );
    await provider.send({
      to: "olive@example.com",
      subject: "Your Switchboard code: 123456",
      text: "Your code is 123456.",
    });
    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message?.rcpt.join()).toContain("olive@example.com");
    expect(message?.data).toContain("Subject: Your Switchboard code: 123456");
    expect(message?.data).toContain("From: Switchboard <no-reply@example.com>");
    expect(message?.data).toContain("Your code is 123456.");
  });

  it("fails loudly when the server is unreachable", async () => {
    const provider = smtpEmailProvider(
      "smtp://127.0.0.1:1?ignoreTLS=true&connectionTimeout=2000",
      "x@example.com",
    );
    await expect(provider.send({ to: "a@example.com", subject: "s", text: "t" })).rejects.toThrow();
  });
});
