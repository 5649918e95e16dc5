/**
 * Contact display names cached in localStorage `contact-display-names` (spec §9 local storage keys) as
 * { address -> name }, written whenever contacts load, so a name shows at once before the server answers
 * (the inbox compose's recipients). Addresses are in the server's form: phone numbers in E.164
 * (ten digits are a US number), e-mail addresses in lower case. Logout clears it with the rest.
 */

export const CONTACT_NAMES_KEY = "contact-display-names";
/** Most addresses kept: the newest written win. */
export const CONTACT_NAMES_LIMIT = 5000;

type Named = { displayName: string; addresses: readonly string[] };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An address as the server keys it (apps/server inbox addresses), or null when it is none. */
export function addressKey(value: string): string | null {
  const text = value.trim();
  if (text.includes("@")) return EMAIL.test(text) ? text.toLowerCase() : null;
  if (!/^[\d\s()+.-]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, "");
  if (text.startsWith("+")) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length >= 8 && digits.length <= 15) return `+${digits}`;
  return null;
}

export function readContactNames(): Record<string, string> {
  try {
    const saved = window.localStorage.getItem(CONTACT_NAMES_KEY);
    const parsed: unknown = saved ? JSON.parse(saved) : {};
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    return {};
  }
}

function write(names: Record<string, string>) {
  const entries = Object.entries(names);
  const kept = entries.length > CONTACT_NAMES_LIMIT ? entries.slice(-CONTACT_NAMES_LIMIT) : entries;
  try {
    window.localStorage.setItem(CONTACT_NAMES_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // Storage full or unavailable: the names are only a head start.
  }
}

/** Records the names of loaded contacts (their addresses move to the end: newest kept longest). */
export function rememberContactNames(contacts: readonly Named[]): void {
  if (contacts.length === 0) return;
  const names = readContactNames();
  for (const contact of contacts)
    for (const address of contact.addresses) {
      delete names[address];
      if (contact.displayName) names[address] = contact.displayName;
    }
  write(names);
}

/** Forgets the addresses of a deleted contact, or those an edited contact no longer has. */
export function forgetContactNames(addresses: readonly string[]): void {
  const names = readContactNames();
  let changed = false;
  for (const address of addresses)
    if (address in names) {
      delete names[address];
      changed = true;
    }
  if (changed) write(names);
}

/** The cached name of an address as typed (`(503) 555-0142`, `Maria@Example.com`), or null. */
export function contactNameFor(value: string): string | null {
  const key = addressKey(value);
  return key ? (readContactNames()[key] ?? null) : null;
}
