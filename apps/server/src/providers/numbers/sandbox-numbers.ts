import { createHash } from "node:crypto";
import { type AvailableNumber, NUMBER_COUNTRIES, type NumberCountry } from "@switchboard/api";
import type { NumberProvider, NumberSearch } from "./number-provider.ts";

/** An area code of the sandbox inventory: where it is (city, region) and its country. */
type AreaCode = { code: string; city: string; region: string; country: NumberCountry };

/**
 * The sandbox carrier's area codes: real North American area codes with their main city, and UK geographic
 * codes. Each holds a stable inventory of numbers (the same search answers the same numbers until one is
 * taken), so the marketplace behaves like a carrier's without leaving the machine.
 */
export const SANDBOX_AREA_CODES: readonly AreaCode[] = [
  ["201", "Jersey City", "NJ"],
  ["202", "Washington", "DC"],
  ["206", "Seattle", "WA"],
  ["212", "New York", "NY"],
  ["213", "Los Angeles", "CA"],
  ["214", "Dallas", "TX"],
  ["303", "Denver", "CO"],
  ["305", "Miami", "FL"],
  ["312", "Chicago", "IL"],
  ["313", "Detroit", "MI"],
  ["314", "St. Louis", "MO"],
  ["404", "Atlanta", "GA"],
  ["407", "Orlando", "FL"],
  ["415", "San Francisco", "CA"],
  ["425", "Bellevue", "WA"],
  ["503", "Portland", "OR"],
  ["512", "Austin", "TX"],
  ["541", "Eugene", "OR"],
  ["602", "Phoenix", "AZ"],
  ["612", "Minneapolis", "MN"],
  ["615", "Nashville", "TN"],
  ["617", "Boston", "MA"],
  ["619", "San Diego", "CA"],
  ["646", "New York", "NY"],
  ["702", "Las Vegas", "NV"],
  ["704", "Charlotte", "NC"],
  ["713", "Houston", "TX"],
  ["718", "Brooklyn", "NY"],
  ["720", "Denver", "CO"],
  ["801", "Salt Lake City", "UT"],
  ["804", "Richmond", "VA"],
  ["808", "Honolulu", "HI"],
  ["816", "Kansas City", "MO"],
  ["858", "San Diego", "CA"],
  ["907", "Anchorage", "AK"],
  ["919", "Raleigh", "NC"],
  ["971", "Portland", "OR"],
]
  .map(([code, city, region]) => ({ code, city, region, country: "US" }) as AreaCode)
  .concat(
    [
      ["416", "Toronto", "ON"],
      ["604", "Vancouver", "BC"],
      ["514", "Montreal", "QC"],
      ["403", "Calgary", "AB"],
    ].map(([code, city, region]) => ({ code, city, region, country: "CA" }) as AreaCode),
    [
      ["20", "London", "England"],
      ["161", "Manchester", "England"],
      ["121", "Birmingham", "England"],
      ["131", "Edinburgh", "Scotland"],
    ].map(([code, city, region]) => ({ code, city, region, country: "GB" }) as AreaCode),
  );

/** Numbers each area code holds in the sandbox inventory. */
const PER_AREA_CODE = 120;
const MONTHLY_PRICE_CENTS = 115;

/** Deterministic digits from a seed (a stable inventory). */
function digitsFrom(seed: string, count: number): string {
  let out = "";
  let round = 0;
  while (out.length < count) {
    const hash = createHash("sha256").update(`${seed}:${round++}`).digest();
    for (const byte of hash) if (byte < 250 && out.length < count) out += String(byte % 10);
  }
  return out;
}

/** The national significant number's length after the area code. */
function subscriberLength(area: AreaCode): number {
  if (area.country === "GB") return 10 - area.code.length;
  return 7;
}

/** A valid NANP exchange starts 2-9 and is not N11; the sandbox avoids 555 (reserved for fiction). */
function validSubscriber(area: AreaCode, subscriber: string): boolean {
  if (area.country === "GB") return /^[2-8]/.test(subscriber);
  const exchange = subscriber.slice(0, 3);
  return /^[2-9]/.test(exchange) && !/^[2-9]11$/.test(exchange) && exchange !== "555";
}

function e164(area: AreaCode, subscriber: string): string {
  return `+${NUMBER_COUNTRIES[area.country]}${area.code}${subscriber}`;
}

function toAvailable(area: AreaCode, subscriber: string, vanity: string | null): AvailableNumber {
  return {
    number: e164(area, subscriber),
    country: area.country,
    region: area.region,
    locality: area.city,
    vanity,
    provider: "sandbox",
    capabilities: { voice: true, sms: area.country !== "GB" },
    monthlyPriceCents: MONTHLY_PRICE_CENTS,
  };
}

/** The stable inventory of one area code. */
export function inventoryOf(area: AreaCode): string[] {
  const length = subscriberLength(area);
  const numbers: string[] = [];
  for (let i = 0; numbers.length < PER_AREA_CODE && i < PER_AREA_CODE * 3; i++) {
    const subscriber = digitsFrom(`${area.country}${area.code}#${i}`, length);
    if (validSubscriber(area, subscriber)) numbers.push(subscriber);
  }
  return numbers;
}

/** Whether `number` is one the sandbox carrier hands out (so its calls reach our SIP endpoint). */
export function isSandboxNumber(number: string): boolean {
  return SANDBOX_AREA_CODES.some((area) => {
    const prefix = `+${NUMBER_COUNTRIES[area.country]}${area.code}`;
    return number.startsWith(prefix) && number.length === prefix.length + subscriberLength(area);
  });
}

function areaFor(number: string): AreaCode | undefined {
  return SANDBOX_AREA_CODES.find((area) =>
    number.startsWith(`+${NUMBER_COUNTRIES[area.country]}${area.code}`),
  );
}

const norm = (value: string) => value.trim().toLowerCase().replace(/\./g, "");

/**
 * The offline number provider: searches its inventory by area-code prefix, locality or vanity phrase,
 * "buys" by reserving (the caller keeps the row; `isTaken` hides numbers already someone's), and every
 * number it sells reaches our SIP endpoint as `sip:<number>@host`.
 */
export function sandboxNumberProvider(options: {
  /** Numbers already in use (assigned to any organisation): never offered. */
  isTaken: (numbers: string[]) => Promise<Set<string>>;
}): NumberProvider {
  async function free(candidates: AvailableNumber[], limit: number): Promise<AvailableNumber[]> {
    const taken = await options.isTaken(candidates.map((c) => c.number));
    return candidates.filter((c) => !taken.has(c.number)).slice(0, limit);
  }

  return {
    kind: "sandbox",
    async search(query: NumberSearch) {
      const areas = SANDBOX_AREA_CODES.filter((area) => area.country === query.country);
      const want = query.limit * 2;
      if (query.by === "prefix") {
        // The prefix is the area code and maybe the first digits of the exchange.
        const exact = areas.filter(
          (area) => query.prefix.startsWith(area.code) || area.code.startsWith(query.prefix),
        );
        const candidates: AvailableNumber[] = [];
        for (const area of exact) {
          const rest = query.prefix.slice(area.code.length);
          for (const subscriber of inventoryOf(area))
            if (subscriber.startsWith(rest)) candidates.push(toAvailable(area, subscriber, null));
        }
        let found = await free(candidates, query.limit);
        if (!query.strict && found.length < query.limit) {
          // Widen to the other area codes of the same region(s).
          const regions = new Set(exact.map((area) => area.region));
          const nearby = areas.filter((area) => regions.has(area.region) && !exact.includes(area));
          const more = nearby.flatMap((area) =>
            inventoryOf(area)
              .slice(0, want)
              .map((s) => toAvailable(area, s, null)),
          );
          found = found.concat(await free(more, query.limit - found.length));
        }
        return found;
      }
      if (query.by === "locality") {
        const city = query.city ? norm(query.city) : null;
        const region = query.region ? norm(query.region) : null;
        const matching = areas.filter(
          (area) =>
            (!city || norm(area.city) === city || norm(area.city).startsWith(city)) &&
            (!region || norm(area.region) === region),
        );
        // Interleave the area codes so a city with several shows each.
        const lists = matching.map((area) => inventoryOf(area).map((s) => toAvailable(area, s, null)));
        const candidates: AvailableNumber[] = [];
        for (let i = 0; candidates.length < want && lists.some((list) => i < list.length); i++)
          for (const list of lists) {
            const item = list[i];
            if (item) candidates.push(item);
          }
        return free(candidates, query.limit);
      }
      // A phrase: its digits end the number (the line number, or the whole subscriber number).
      const digits = query.digits;
      const candidates: AvailableNumber[] = [];
      const pool = query.prefix ? areas.filter((area) => area.code.startsWith(query.prefix ?? "")) : areas;
      for (const area of pool) {
        const length = subscriberLength(area);
        if (digits.length > length) continue;
        for (let i = 0; i < 3 && candidates.length < want; i++) {
          const head = digitsFrom(`${area.country}${area.code}~${digits}~${i}`, length - digits.length);
          const subscriber = head + digits;
          if (validSubscriber(area, subscriber))
            candidates.push(toAvailable(area, subscriber, query.phrase.toUpperCase()));
          if (head.length === 0) break;
        }
      }
      return free(candidates, query.limit);
    },
    async purchase(number) {
      if (!isSandboxNumber(number) || !areaFor(number))
        throw new Error(`The sandbox carrier does not have ${number}.`);
      return { number, providerId: `SB${number.slice(1)}` };
    },
    async release() {},
  };
}

/** Where an assigned sandbox or bring-your-own number is in the inventory (for the row's locality). */
export function sandboxLocationOf(number: string): { region: string; locality: string } | null {
  const area = areaFor(number);
  return area ? { region: area.region, locality: area.city } : null;
}
