/** The bitcoin exchange rate: USD per satoshi. Chosen by EXCHANGE_RATES (config.ts). */
export type RateProvider = {
  name: string;
  satToUsd(signal?: AbortSignal): Promise<number>;
};

const SATS_PER_BTC = 100_000_000;

/**
 * The offline sandbox market (EXCHANGE_RATES=sandbox, the default): BTC trades around $43,000 (the spec's
 * fallback of 0.00043 USD per sat), moving up to 3% either way over the day, the same for every instance
 * at the same moment. Nothing leaves the machine.
 */
export function sandboxRates(now: () => number = Date.now): RateProvider {
  return {
    name: "sandbox",
    async satToUsd() {
      const day = (now() % 86_400_000) / 86_400_000;
      const btcUsd = 43_000 * (1 + 0.03 * Math.sin(2 * Math.PI * day));
      return Math.round(btcUsd * 100) / 100 / SATS_PER_BTC;
    },
  };
}

/** Coinbase's public exchange rates (EXCHANGE_RATES=coinbase): GET /v2/exchange-rates?currency=BTC. */
export function coinbaseRates(baseUrl: string, doFetch: typeof fetch = fetch): RateProvider {
  return {
    name: "coinbase",
    async satToUsd(signal) {
      const response = await doFetch(`${baseUrl}/v2/exchange-rates?currency=BTC`, {
        headers: { accept: "application/json" },
        signal: signal ?? AbortSignal.timeout(5000),
      });
      if (!response.ok) throw new Error(`Coinbase rates answered ${response.status}`);
      const body = (await response.json()) as { data?: { rates?: { USD?: string } } };
      const btcUsd = Number(body.data?.rates?.USD);
      if (!Number.isFinite(btcUsd) || btcUsd <= 0) throw new Error("Coinbase rates: no USD rate");
      return btcUsd / SATS_PER_BTC;
    },
  };
}
