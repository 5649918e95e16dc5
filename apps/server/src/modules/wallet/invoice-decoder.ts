import { LRUCache } from "lru-cache";
import { type DecodedInvoice, decodeInvoice } from "../../providers/lightning/bolt11.ts";

/** What decoding a text came to: the invoice, or why it is not one. */
type Decoding = { invoice: DecodedInvoice } | { reason: string };

/** The text as decodeInvoice reads it (the cache's key). */
const normalise = (paymentRequest: string) =>
  paymentRequest
    .trim()
    .replace(/^lightning:/i, "")
    .toLowerCase();

/**
 * BOLT11 decoding remembered per text. A decode recovers the payee's key from the signature (15-50 ms of
 * the event loop); the same invoice sent again — a retry, or hundreds at once — is decoded once, and so is
 * a text that is not an invoice (its reason is kept). Answers decodeInvoice's result, or throws its error.
 */
export function createInvoiceDecoder(options: { max?: number } = {}) {
  const decoded = new LRUCache<string, Decoding>({ max: options.max ?? 1000 });
  return function decode(paymentRequest: string): Readonly<DecodedInvoice> {
    const key = normalise(paymentRequest);
    let known = decoded.get(key);
    if (!known) {
      try {
        known = { invoice: Object.freeze(decodeInvoice(key)) };
      } catch (error) {
        known = { reason: error instanceof Error ? error.message : String(error) };
      }
      decoded.set(key, known);
    }
    if ("reason" in known) throw new Error(known.reason);
    return known.invoice;
  };
}

export type InvoiceDecoder = ReturnType<typeof createInvoiceDecoder>;
