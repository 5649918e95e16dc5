/** The usage module's public entry point: other modules use it only through what this file exports. */
export { billingPeriod } from "./billing-period.ts";
export {
  LIST_PRICES_USD,
  MICROS_PER_CENT,
  microsToUsd,
  type PricedUsage,
  priceUsage,
  pricingOf,
  type UsagePricing,
  unitPriceUsd,
} from "./pricing.ts";
export { createUsageRepository, USAGE_SQL } from "./usage.repository.ts";
