import { createHmac, timingSafeEqual } from "node:crypto";
import { cleanText } from "@switchboard/core";
import type { SmsProvider, SmsSent } from "./sms-provider.ts";

export type TwilioConfig = {
  accountSid: string;
  authToken: string;
  /** Sender of messages that name no number (sign-in codes). */
  fromNumber: string | undefined;
  /** https://api.twilio.com, or a local server in tests. */
  apiUrl: string;
  /** Where Twilio posts delivery states (the status webhook). */
  statusCallbackUrl: string | undefined;
  fetch?: typeof fetch;
  /** How long a send may wait for Twilio's answer (15 s). */
  timeoutMs?: number;
};

export type FormParams = Record<string, string | string[]>;

/**
 * One field of a carrier's form webhook (its first value, "" when absent), cleaned of NUL and invalid code
 * points: the request hook leaves form bodies as they arrived, since the carrier's signature covers them.
 */
export function formField(params: FormParams, key: string): string {
  const value = params[key];
  return cleanText((Array.isArray(value) ? value[0] : value) ?? "");
}

/**
 * X-Twilio-Signature: base64 HMAC-SHA1, keyed with the auth token, of the full URL Twilio requested followed
 * by every POST parameter name and value, names sorted.
 */
export function twilioSignature(authToken: string, url: string, params: FormParams): string {
  let data = url;
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    for (const item of Array.isArray(value) ? value : [value ?? ""]) data += key + item;
  }
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}

export function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: FormParams,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Twilio's Messages REST API: one form POST per message, basic auth with the account SID and token. */
export function twilioSmsProvider(config: TwilioConfig): SmsProvider {
  const doFetch = config.fetch ?? fetch;
  const endpoint = `${config.apiUrl.replace(/\/$/, "")}/2010-04-01/Accounts/${encodeURIComponent(
    config.accountSid,
  )}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString("base64")}`;
  return {
    kind: "twilio",
    async send(message): Promise<SmsSent> {
      const from = message.from ?? config.fromNumber;
      if (!from) throw new Error("Twilio needs a sending number (TWILIO_FROM_NUMBER or the agent's number).");
      const form = new URLSearchParams({ To: message.to, From: from, Body: message.body });
      for (const url of message.media ?? []) form.append("MediaUrl", url);
      if (config.statusCallbackUrl) form.set("StatusCallback", config.statusCallbackUrl);
      const timeoutMs = config.timeoutMs ?? 15_000;
      const response = await doFetch(endpoint, {
        method: "POST",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
        body: form.toString(),
        signal: AbortSignal.timeout(timeoutMs),
      }).catch((error: unknown) => {
        // Asked and not answered: Twilio may have taken the message, which the person reading the error
        // must know before sending it again. Not reached at all: it certainly did not.
        if (error instanceof Error && error.name === "TimeoutError")
          throw new Error(
            `Twilio did not answer within ${timeoutMs / 1000} s: the message may have been sent.`,
          );
        throw new Error(`Twilio could not be reached: ${networkReason(error)}`);
      });
      const answer = (await response.json().catch(() => ({}))) as {
        sid?: string;
        status?: string;
        message?: string;
      };
      if (!response.ok || !answer.sid)
        throw new Error(
          `Twilio refused the message (${response.status}): ${answer.message ?? "no reason given"}`,
        );
      const status = answer.status === "sent" || answer.status === "delivered" ? answer.status : "queued";
      return { id: answer.sid, status };
    },
  };
}

/** Why a request never reached its server, in words (fetch wraps the socket's error as its cause). */
function networkReason(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
