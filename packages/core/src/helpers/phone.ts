/** Phone-number display rules (product spec §5, formatting helpers). */

/** Characters a typed or stored phone number may carry besides digits. */
const PHONE_PUNCTUATION = /^[\d\s()+.-]+$/;

function digitsOf(value: string): string {
  return value.replace(/\D/g, "");
}

/**
 * Display form of a phone number: an 11-digit number reads `+1 (xxx) xxx-xxxx` (the leading digit is the
 * country code, 1 for every US number). Strings containing `@` (e-mail or SIP addresses) are returned
 * untouched, and so is anything that is not made of digits and phone punctuation or has another length.
 */
export function formatPhoneNumber(value: string): string {
  if (value.includes("@") || !PHONE_PUNCTUATION.test(value)) return value;
  const digits = digitsOf(value);
  if (digits.length !== 11) return value;
  return `+${digits.slice(0, 1)} (${digits.slice(1, 4)}) ${digits.slice(4, 7)}-${digits.slice(7)}`;
}

/** A US number is 11 digits beginning with 1 (phone punctuation such as `+`, spaces, dashes is ignored). */
export function isUsNumber(value: string): boolean {
  if (!PHONE_PUNCTUATION.test(value)) return false;
  return /^1\d{10}$/.test(digitsOf(value));
}
