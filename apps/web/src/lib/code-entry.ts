import { EMAIL_CODE_LENGTH } from "@switchboard/core";

/** What the code field keeps of what is typed or pasted: digits only, at most six. */
export function normaliseCode(value: string): string {
  return value.replace(/\D/g, "").slice(0, EMAIL_CODE_LENGTH);
}

/** The code may be submitted only when it has exactly 6 characters (spec §5). */
export function isCompleteCode(code: string): boolean {
  return code.length === EMAIL_CODE_LENGTH;
}
