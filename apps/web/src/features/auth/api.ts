import {
  emailSchema,
  emailVerify,
  phoneNumberSchema,
  type Session,
  signinEmail,
  signinPhoneNumber,
  signinPhoneNumberVerify,
  signupEmail,
} from "@switchboard/api";
import { apiClient } from "../../lib/api-client.ts";
import { readSession, saveSession } from "../../lib/session.ts";
import { browserTimeZone } from "../../lib/time-format.ts";

export type SignInChannel = "email" | "phone";

/** Validates the address with the API's own schema; answers the normalised value or the message. */
export function parseAddress(channel: SignInChannel, value: string): { value: string } | { error: string } {
  const parsed = (channel === "email" ? emailSchema : phoneNumberSchema).safeParse(value);
  return parsed.success
    ? { value: parsed.data }
    : { error: parsed.error.issues[0]?.message ?? "Check this field." };
}

/** POST /api/v1/signin/email or /signin/phoneNumber: sends a 6-digit code. Answers the server's message. */
export async function requestSignInCode(
  channel: SignInChannel,
  address: string,
): Promise<string | undefined> {
  const answer =
    channel === "email"
      ? await apiClient.call(signinEmail, { body: { email: address } })
      : await apiClient.call(signinPhoneNumber, { body: { phoneNumber: address } });
  return answer.message;
}

/** POST /api/v1/email/verify or /signin/phoneNumber/verify: the code for a session. */
export function verifySignInCode(
  channel: SignInChannel,
  address: string,
  code: string,
  mobile: boolean,
): Promise<Session> {
  // The catalogue sends the code as a number; the server pads it back to six digits.
  const verificationCode = Number(code);
  return channel === "email"
    ? apiClient.call(emailVerify, { body: { email: address, verificationCode, mobile } })
    : apiClient.call(signinPhoneNumberVerify, { body: { phoneNumber: address, verificationCode, mobile } });
}

export type SignUpFields = {
  email: string;
  name?: string;
  businessName?: string;
  number?: string;
  accountId?: number;
  /** The referral link's `target` (who referred this sign-up). */
  target?: string;
};

/** The token of the anonymous session kept in this browser, which sign-up turns into the new account. */
export function storedTempUserToken(): string | undefined {
  const session = readSession();
  return session?.userData?.temporary ? session.token : undefined;
}

/** POST /api/v1/signup/email: e-mails the code that creates the account (with tempUserToken if any). */
export async function requestSignUpCode(fields: SignUpFields): Promise<string | undefined> {
  const tempUserToken = storedTempUserToken();
  const answer = await apiClient.call(signupEmail, {
    // The browser's zone becomes the new organisation's: its dates and times read as the person expects.
    body: { ...fields, timeZone: browserTimeZone(), ...(tempUserToken ? { tempUserToken } : {}) },
  });
  return answer.message;
}

/** Keeps the session of a successful sign-in in localStorage (`token`, `id`, `userData`). */
export function storeSession(session: Session): void {
  saveSession({
    token: session.token || session.authToken,
    id: session.id,
    userData: {
      id: session.id,
      username: session.username,
      accountId: session.accountId,
      accountType: session.accountType,
    },
  });
}
