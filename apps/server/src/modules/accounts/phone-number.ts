import { normalizePhoneNumber } from "@switchboard/core";
import { badRequest } from "../../api-error.ts";

/** The same words as the request schema's check of a typed phone number (packages/api). */
export const PHONE_NUMBER_MESSAGE = "Enter a valid phone number.";

/** A phone number a user typed, in the E.164 form accounts and users store it in; 400 when it is none. */
export function storedPhoneNumber(typed: string): string {
  const phone = normalizePhoneNumber(typed);
  if (!phone) throw badRequest(PHONE_NUMBER_MESSAGE);
  return phone;
}
