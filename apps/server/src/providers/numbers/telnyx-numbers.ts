import type { AvailableNumber } from "@switchboard/api";
import { type NumberProvider, NumberProviderError, type NumberSearch } from "./number-provider.ts";

export type TelnyxNumbersConfig = {
  apiKey: string;
  /** The SIP connection (pointing at our SIP endpoint) bought numbers are attached to. */
  connectionId: string | undefined;
  /** https://api.telnyx.com, or a local server in tests. */
  apiUrl: string;
  fetch?: typeof fetch;
};

type TelnyxAvailable = {
  phone_number: string;
  region_information?: { region_type: string; region_name: string }[];
  features?: { name: string }[];
  cost_information?: { monthly_cost?: string };
};

/**
 * Telnyx's number APIs (v2): available_phone_numbers with filters (national destination code, locality,
 * administrative area, contains), number_orders to buy onto our SIP connection (calls reach our SIP
 * endpoint as sip:<number>@host), and DELETE phone_numbers/{id} to release.
 */
export function telnyxNumberProvider(config: TelnyxNumbersConfig): NumberProvider {
  const doFetch = config.fetch ?? fetch;
  const base = `${config.apiUrl.replace(/\/$/, "")}/v2`;

  async function call(method: string, path: string, body?: unknown) {
    const response = await doFetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${config.apiKey}`,
        accept: "application/json",
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    const answer = (text ? JSON.parse(text) : {}) as { data?: unknown; errors?: { detail?: string }[] };
    if (!response.ok)
      throw new NumberProviderError(
        `Telnyx refused (${response.status}): ${answer.errors?.[0]?.detail ?? "no reason given"}`,
      );
    return answer;
  }

  return {
    kind: "telnyx",
    async search(query: NumberSearch) {
      const params = new URLSearchParams({
        "filter[country_code]": query.country,
        "filter[limit]": String(query.limit),
        "filter[features][]": "voice",
        "filter[phone_number_type]": "local",
      });
      if (query.by === "prefix") {
        params.set("filter[national_destination_code]", query.prefix.slice(0, 3));
        if (query.prefix.length > 3) params.set("filter[phone_number][starts_with]", query.prefix);
      } else if (query.by === "locality") {
        if (query.city) params.set("filter[locality]", query.city);
        if (query.region) params.set("filter[administrative_area]", query.region);
      } else {
        params.set("filter[phone_number][ends_with]", query.digits);
        if (query.prefix) params.set("filter[national_destination_code]", query.prefix);
      }
      const answer = await call("GET", `/available_phone_numbers?${params}`);
      return ((answer.data ?? []) as TelnyxAvailable[]).map((item): AvailableNumber => {
        const region = (type: string) =>
          item.region_information?.find((info) => info.region_type === type)?.region_name ?? "";
        const features = new Set(item.features?.map((feature) => feature.name));
        const monthly = Number(item.cost_information?.monthly_cost ?? "1");
        return {
          number: item.phone_number,
          country: query.country,
          region: region("state") || region("administrative_area"),
          locality: region("location") || region("rate_center"),
          vanity: query.by === "phrase" ? query.phrase.toUpperCase() : null,
          provider: "telnyx",
          capabilities: { voice: features.has("voice") || features.size === 0, sms: features.has("sms") },
          monthlyPriceCents: Math.round((Number.isFinite(monthly) ? monthly : 1) * 100),
        };
      });
    },
    async purchase(number) {
      await call("POST", "/number_orders", {
        phone_numbers: [{ phone_number: number }],
        ...(config.connectionId ? { connection_id: config.connectionId } : {}),
      });
      const found = await call("GET", `/phone_numbers?filter[phone_number]=${encodeURIComponent(number)}`);
      const id = ((found.data ?? []) as { id: string }[])[0]?.id ?? null;
      return { number, providerId: id };
    },
    async release(number, providerId) {
      let id = providerId;
      if (!id) {
        const found = await call("GET", `/phone_numbers?filter[phone_number]=${encodeURIComponent(number)}`);
        id = ((found.data ?? []) as { id: string }[])[0]?.id ?? null;
      }
      if (id) await call("DELETE", `/phone_numbers/${encodeURIComponent(id)}`);
    },
  };
}
