/**
 * The phone-number rules, in one place: how numbers are stored and compared (E.164, `normalizePhoneNumber`),
 * how outside addresses of conversations and contacts are keyed (`normalizeAddress`), and how numbers are
 * shown (product spec §5, formatting helpers). Server and web both use these.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js/min";

/** Characters a typed or stored phone number may carry besides digits. */
const PHONE_PUNCTUATION = /^[\d\s()+.-]+$/;
/** Numbers typed without a country code are read as North American ones (the demo and first market). */
const DEFAULT_COUNTRY = "US";

function digitsOf(value: string): string {
  return value.replace(/\D/g, "");
}

function possibleE164(text: string, national: boolean): string | null {
  const parsed = national
    ? parsePhoneNumberFromString(text, DEFAULT_COUNTRY)
    : parsePhoneNumberFromString(text);
  return parsed?.isPossible() ? parsed.number : null;
}

/**
 * A phone number as typed (`(503) 555-0199`, `1-503-555-0199`, `+44 20 7946 0958`, `011 44 20 7946 0958`)
 * in E.164 (`+15035550199`), or null when it is not one. Only digits and phone punctuation are read
 * (letters and extensions are refused). A number starting with `+` (or the international prefix `00`)
 * carries its country code; one without is read as North American (ten digits, or eleven starting with 1)
 * and otherwise as a full international number typed without its `+`. The country code must exist and the
 * length must be possible for it (libphonenumber-js's metadata); the number need not be assigned, so
 * fictional 555 numbers pass.
 */
export function normalizePhoneNumber(value: string): string | null {
  const text = value.trim();
  if (!PHONE_PUNCTUATION.test(text)) return null;
  const digits = digitsOf(text);
  if (digits.length === 0 || digits.length > 15) return null;
  if (text.startsWith("+")) return possibleE164(`+${digits}`, false);
  if (digits.startsWith("00")) return possibleE164(`+${digits.slice(2)}`, false);
  return possibleE164(text, true) ?? possibleE164(`+${digits}`, false);
}

/** An outside address of a conversation or contact: a phone number in E.164 or a lower-case e-mail. */
export type OutsideAddress = { address: string; kind: "phone" | "email" };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Outside addresses in one form, so rooms, contacts, blocks and carriers agree: e-mail addresses in lower
 * case, phone numbers by `normalizePhoneNumber`; null for anything else.
 */
export function normalizeAddress(value: string): OutsideAddress | null {
  const text = value.trim();
  if (text.includes("@")) return EMAIL.test(text) ? { address: text.toLowerCase(), kind: "email" } : null;
  const phone = normalizePhoneNumber(text);
  return phone ? { address: phone, kind: "phone" } : null;
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
