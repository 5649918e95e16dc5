/**
 * The sandbox's card network, with Stripe test mode's cards and messages: 4242 4242 4242 4242 succeeds,
 * 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds, 4000 0000 0000 0069 is
 * expired; any other number is declined (the sandbox moves no real money). The expiry must be a future
 * MM/YY and the security code 3 digits (4 for American Express numbers).
 */
export type CardInput = { cardNumber: string; expiry: string; cvc: string };
export type CardField = "cardNumber" | "expiry" | "cvc";
export type CardOutcome =
  | { ok: true; last4: string; brand: string }
  | { ok: false; field: CardField; code: string; message: string };

export const CARD_MESSAGES = {
  incompleteNumber: "Your card number is incomplete.",
  invalidNumber: "Your card number is invalid.",
  incompleteExpiry: "Your card's expiration date is incomplete.",
  pastExpiry: "Your card's expiration year is in the past.",
  incompleteCvc: "Your card's security code is incomplete.",
  declined: "Your card was declined.",
  insufficientFunds: "Your card has insufficient funds.",
  expired: "Your card has expired.",
  unknownTestCard:
    "Your card was declined. This is the sandbox: use a test card such as 4242 4242 4242 4242.",
} as const;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const brandOf = (digits: string) =>
  digits.startsWith("4")
    ? "visa"
    : /^5[1-5]/.test(digits)
      ? "mastercard"
      : /^3[47]/.test(digits)
        ? "amex"
        : "card";

export function chargeTestCard(card: CardInput, now: Date = new Date()): CardOutcome {
  const digits = card.cardNumber.replace(/[\s-]/g, "");
  if (!/^\d*$/.test(digits) || (digits.length >= 12 && !luhn(digits)))
    return { ok: false, field: "cardNumber", code: "invalid_number", message: CARD_MESSAGES.invalidNumber };
  if (digits.length < 15)
    return {
      ok: false,
      field: "cardNumber",
      code: "incomplete_number",
      message: CARD_MESSAGES.incompleteNumber,
    };
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
  const month = Number(expiry?.[1]);
  if (!expiry || month < 1 || month > 12)
    return { ok: false, field: "expiry", code: "incomplete_expiry", message: CARD_MESSAGES.incompleteExpiry };
  const year = Number(expiry[2]) + ((expiry[2] as string).length === 2 ? 2000 : 0);
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1)
    return {
      ok: false,
      field: "expiry",
      code: "invalid_expiry_year_past",
      message: CARD_MESSAGES.pastExpiry,
    };
  const brand = brandOf(digits);
  if (!new RegExp(`^\\d{${brand === "amex" ? 4 : 3}}$`).test(card.cvc.trim()))
    return { ok: false, field: "cvc", code: "incomplete_cvc", message: CARD_MESSAGES.incompleteCvc };
  const last4 = digits.slice(-4);
  switch (digits) {
    case "4242424242424242":
    case "5555555555554444":
    case "378282246310005":
      return { ok: true, last4, brand };
    case "4000000000009995":
      return {
        ok: false,
        field: "cardNumber",
        code: "insufficient_funds",
        message: CARD_MESSAGES.insufficientFunds,
      };
    case "4000000000000069":
      return { ok: false, field: "cardNumber", code: "expired_card", message: CARD_MESSAGES.expired };
    case "4000000000000002":
      return { ok: false, field: "cardNumber", code: "card_declined", message: CARD_MESSAGES.declined };
    default:
      return {
        ok: false,
        field: "cardNumber",
        code: "card_declined",
        message: CARD_MESSAGES.unknownTestCard,
      };
  }
}
