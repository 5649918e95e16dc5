import { normalizeAddress } from "@switchboard/core";

/**
 * Reading a contact's free nested fields: the name to show and the addresses (phone numbers, e-mails) it
 * is matched to conversations by. Any field whose key path mentions phone, mobile, cell, number or email
 * counts, at any depth, as a string or a list of strings or of `{ value | number | address }` objects.
 */
const ADDRESS_KEY = /phone|mobile|cell|number|email|e-mail|sms/i;

function collect(value: unknown, keyed: boolean, out: Set<string>, depth: number) {
  if (depth > 6 || value === null || value === undefined) return;
  if (typeof value === "string") {
    if (keyed) {
      const normalized = normalizeAddress(value);
      if (normalized) out.add(normalized.address);
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collect(item, keyed, out, depth + 1);
    return;
  }
  if (typeof value === "object") {
    for (const [key, item] of Object.entries(value as Record<string, unknown>))
      collect(item, keyed || ADDRESS_KEY.test(key), out, depth + 1);
  }
}

export function contactAddresses(data: Record<string, unknown>): string[] {
  const out = new Set<string>();
  collect(data, false, out, 0);
  return [...out].slice(0, 50);
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

export function contactDisplayName(data: Record<string, unknown>): string {
  for (const key of ["name", "fullName", "displayName"]) if (text(data[key])) return text(data[key]);
  const joined = [text(data.firstName), text(data.lastName)].filter(Boolean).join(" ");
  if (joined) return joined;
  if (text(data.company)) return text(data.company);
  return contactAddresses(data)[0] ?? "";
}
