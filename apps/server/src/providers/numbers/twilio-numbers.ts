import type { AvailableNumber } from "@switchboard/api";
import { type NumberProvider, NumberProviderError, type NumberSearch } from "./number-provider.ts";

export type TwilioNumbersConfig = {
  accountSid: string;
  authToken: string;
  /** https://api.twilio.com, or a local server in tests. */
  apiUrl: string;
  fetch?: typeof fetch;
};

type TwilioAvailable = {
  phone_number: string;
  locality?: string | null;
  region?: string | null;
  iso_country?: string;
  friendly_name?: string;
  capabilities?: { voice?: boolean; SMS?: boolean; sms?: boolean };
};

/**
 * Twilio's number APIs: AvailablePhoneNumbers/{country}/Local (AreaCode, Contains with a vanity pattern,
 * InLocality, InRegion) to search, IncomingPhoneNumbers to buy with the voice and messaging webhooks
 * pointing at us, and DELETE of the IncomingPhoneNumber to release.
 */
export function twilioNumberProvider(config: TwilioNumbersConfig): NumberProvider {
  const doFetch = config.fetch ?? fetch;
  const base = `${config.apiUrl.replace(/\/$/, "")}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString("base64")}`;

  async function call(method: string, path: string, form?: URLSearchParams) {
    const response = await doFetch(`${base}${path}`, {
      method,
      headers: {
        authorization,
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form?.toString(),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    const answer = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (!response.ok)
      throw new NumberProviderError(
        `Twilio refused (${response.status}): ${String(answer.message ?? "no reason given")}`,
      );
    return answer;
  }

  return {
    kind: "twilio",
    async search(query: NumberSearch) {
      const params = new URLSearchParams({ PageSize: String(query.limit), VoiceEnabled: "true" });
      if (query.by === "prefix") {
        params.set("AreaCode", query.prefix.slice(0, 3));
        if (query.prefix.length > 3) params.set("Contains", `${query.prefix}*******`.slice(0, 10));
      } else if (query.by === "locality") {
        if (query.city) params.set("InLocality", query.city);
        if (query.region) params.set("InRegion", query.region);
      } else {
        params.set("Contains", query.phrase.toUpperCase());
        if (query.prefix) params.set("AreaCode", query.prefix);
      }
      for (const [key, value] of [...params]) if (!value) params.delete(key);
      const answer = await call("GET", `/AvailablePhoneNumbers/${query.country}/Local.json?${params}`);
      const list = (answer.available_phone_numbers ?? []) as TwilioAvailable[];
      return list.map(
        (item): AvailableNumber => ({
          number: item.phone_number,
          country: item.iso_country ?? query.country,
          region: item.region ?? "",
          locality: item.locality ?? "",
          vanity: query.by === "phrase" ? query.phrase.toUpperCase() : null,
          provider: "twilio",
          capabilities: {
            voice: item.capabilities?.voice ?? true,
            sms: item.capabilities?.SMS ?? item.capabilities?.sms ?? true,
          },
          monthlyPriceCents: 115,
        }),
      );
    },
    async purchase(number, routing) {
      const form = new URLSearchParams({
        PhoneNumber: number,
        VoiceUrl: routing.voiceUrl,
        VoiceMethod: "POST",
        SmsUrl: routing.smsUrl,
        SmsMethod: "POST",
        StatusCallback: routing.smsStatusUrl,
      });
      const answer = await call("POST", "/IncomingPhoneNumbers.json", form);
      return { number: String(answer.phone_number ?? number), providerId: String(answer.sid ?? "") || null };
    },
    async release(number, providerId) {
      let sid = providerId;
      if (!sid) {
        const found = await call(
          "GET",
          `/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(number)}`,
        );
        sid = ((found.incoming_phone_numbers ?? []) as { sid: string }[])[0]?.sid ?? null;
      }
      if (sid) await call("DELETE", `/IncomingPhoneNumbers/${encodeURIComponent(sid)}.json`);
    },
  };
}
