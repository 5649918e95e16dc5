/**
 * Outside addresses in one form, so rooms, contacts, blocks and carriers agree: phone numbers in E.164
 * (`+15035550199`; ten digits are a US number), e-mail addresses in lower case.
 */
export type Address = { address: string; kind: "phone" | "email" };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeAddress(value: string): Address | null {
  const text = value.trim();
  if (text.includes("@")) return EMAIL.test(text) ? { address: text.toLowerCase(), kind: "email" } : null;
  if (!/^[\d\s()+.-]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, "");
  if (text.startsWith("+"))
    return digits.length >= 8 && digits.length <= 15 ? { address: `+${digits}`, kind: "phone" } : null;
  if (digits.length === 10) return { address: `+1${digits}`, kind: "phone" };
  if (digits.length === 11 && digits.startsWith("1")) return { address: `+${digits}`, kind: "phone" };
  if (digits.length >= 8 && digits.length <= 15) return { address: `+${digits}`, kind: "phone" };
  return null;
}

export const normalizedOrNull = (value: string | null | undefined) =>
  value ? (normalizeAddress(value)?.address ?? null) : null;
