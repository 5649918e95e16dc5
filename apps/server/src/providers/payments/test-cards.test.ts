import { describe, expect, it } from "vitest";
import { coinbaseRates, sandboxRates } from "../rates/rate-provider.ts";
import { CARD_MESSAGES, chargeTestCard } from "./test-cards.ts";

const now = new Date("2026-11-24T12:00:00Z");
const card = (cardNumber: string, expiry = "12/30", cvc = "123") =>
  chargeTestCard({ cardNumber, expiry, cvc }, now);

describe("sandbox test cards", () => {
  it("accepts 4242 and answers Stripe test mode's declines", () => {
    expect(card("4242 4242 4242 4242")).toEqual({ ok: true, last4: "4242", brand: "visa" });
    expect(card("4000 0000 0000 0002")).toMatchObject({ ok: false, message: CARD_MESSAGES.declined });
    expect(card("4000000000009995")).toMatchObject({ ok: false, message: CARD_MESSAGES.insufficientFunds });
    expect(card("4111111111111111")).toMatchObject({ ok: false, message: CARD_MESSAGES.unknownTestCard });
  });

  it("checks the number, expiry and security code first", () => {
    expect(card("4242 4242")).toMatchObject({ field: "cardNumber", message: CARD_MESSAGES.incompleteNumber });
    expect(card("4242424242424241")).toMatchObject({
      field: "cardNumber",
      message: CARD_MESSAGES.invalidNumber,
    });
    expect(card("4242424242424242", "13/30")).toMatchObject({
      field: "expiry",
      message: CARD_MESSAGES.incompleteExpiry,
    });
    expect(card("4242424242424242", "10/26")).toMatchObject({
      field: "expiry",
      message: CARD_MESSAGES.pastExpiry,
    });
    expect(card("4242424242424242", "11 / 2026")).toMatchObject({ ok: true });
    expect(card("4242424242424242", "12/30", "12")).toMatchObject({
      field: "cvc",
      message: CARD_MESSAGES.incompleteCvc,
    });
  });
});

describe("rate providers", () => {
  it("the sandbox market stays within 3% of $43,000 per bitcoin", async () => {
    for (let hour = 0; hour < 24; hour++) {
      const rate = await sandboxRates(() => hour * 3_600_000).satToUsd();
      expect(rate).toBeGreaterThanOrEqual(0.00043 * 0.97 - 1e-12);
      expect(rate).toBeLessThanOrEqual(0.00043 * 1.03 + 1e-12);
    }
  });

  it("Coinbase: USD per BTC becomes USD per sat; a bad answer throws", async () => {
    const answer = (body: unknown, status = 200) =>
      (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;
    expect(
      await coinbaseRates("https://cb.test", answer({ data: { rates: { USD: "50000.00" } } })).satToUsd(),
    ).toBe(0.0005);
    await expect(coinbaseRates("https://cb.test", answer({}, 503)).satToUsd()).rejects.toThrow(/503/);
    await expect(
      coinbaseRates("https://cb.test", answer({ data: { rates: {} } })).satToUsd(),
    ).rejects.toThrow();
  });
});
