import type { AvailableNumber, NumberCountry } from "@switchboard/api";

/** One search of the marketplace: by area-code prefix, by locality, or by a vanity phrase's digits. */
export type NumberSearch =
  | { by: "prefix"; country: NumberCountry; prefix: string; strict: boolean; limit: number }
  | { by: "locality"; country: NumberCountry; city?: string; region?: string; limit: number }
  | {
      by: "phrase";
      country: NumberCountry;
      /** The phrase as typed and as keypad digits. */
      phrase: string;
      digits: string;
      prefix?: string;
      limit: number;
    };

/** Where a bought number's calls and texts go: our SIP endpoint, our voice and text webhooks. */
export type NumberRouting = {
  /** sip:<number>@<our SIP host>:<port> */
  sipUri: string;
  /** Twilio: the voice webhook (answers TwiML that reaches the agent). */
  voiceUrl: string;
  smsUrl: string;
  smsStatusUrl: string;
};

export type PurchasedNumber = { number: string; providerId: string | null };

/**
 * A number provider: searches the numbers it can sell, buys one pointing its calls and texts at us, and
 * releases it. The sandbox carrier is the offline default; Twilio and Telnyx are the real ones.
 */
export type NumberProvider = {
  kind: "sandbox" | "twilio" | "telnyx";
  search(query: NumberSearch): Promise<AvailableNumber[]>;
  purchase(number: string, routing: NumberRouting): Promise<PurchasedNumber>;
  release(number: string, providerId: string | null): Promise<void>;
};

export class NumberProviderError extends Error {
  override name = "NumberProviderError";
}
