import { isValidTimeZone } from "@switchboard/core";
import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";

/** User-facing messages of these routes; each key is its code in the catalogue (packages/api messages.ts). */
export const AUTH_MESSAGES = {
  codeRejected: "Could not verify code.",
  tooManyTries: "Too many wrong tries. Request a new code.",
  addressLimited: "Too many codes were requested for this address. Try again in 15 minutes.",
  ipLimited: "Too many codes were requested from your network. Try again in 15 minutes.",
  anonymousLimited: "Too many sessions were started from your network. Try again in 15 minutes.",
  emailTaken: "An account with this e-mail address already exists. Sign in instead.",
  emailInUse: "This e-mail address belongs to another account.",
  phoneInUse: "This phone number belongs to another account.",
  disabled: "This account is disabled.",
  badOneTimeToken: "Could not authenticate with token",
  badParent: "accountId: no partner or reseller has this id",
} as const;

const ok = z.object({ success: z.literal(true), message: z.string().optional() });

/**
 * What a sign-in request answers, whether or not an account uses the address: the answer never tells who
 * has an account (the attempt counts against the address's and the network's limits either way).
 */
export const SIGNIN_SENT_MESSAGES = {
  email: (email: string) => `If ${email} has an account, we sent it a 6-digit code.`,
  phone: (phone: string) => `If ${phone} is the verified number of an account, we texted it a 6-digit code.`,
} as const;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: "Enter a valid e-mail address." }));

/** Phone numbers as typed: digits with optional +, spaces, dashes, dots and brackets. */
export const phoneNumberSchema = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ().-]{7,24}$/, { message: "Enter a valid phone number." });

/** Six digits; the catalogue sends it as a number (leading zeros lost) or as a string. */
export const verificationCodeSchema = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((value) => (typeof value === "number" ? String(value).padStart(6, "0") : value.trim()))
  .pipe(z.string().regex(/^[0-9]{6}$/, { message: "The code has 6 digits." }));

/** What a successful sign-in answers: the session token and the account signed in to. */
export const sessionSchema = z.object({
  success: z.literal(true),
  token: z.string(),
  authToken: z.string(),
  id: z.number().int(),
  username: z.string(),
  accountId: z.number().int().nullable(),
  accountType: z.enum(["partner", "reseller", "organization", "agent"]).nullable(),
});
export type Session = z.infer<typeof sessionSchema>;

/** An IANA time zone name (`America/Chicago`) Intl knows. */
export const timeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isValidTimeZone, { message: "Choose a time zone such as America/Chicago." });

export const signupEmail = defineRoute({
  id: "signupEmail",
  method: "POST",
  path: "/api/v1/signup/email",
  summary: "Start sign-up: e-mails a 6-digit code that /email/verify turns into a new organisation.",
  tag: "Authentication",
  auth: "none",
  body: z.object({
    email: emailSchema,
    name: z.string().trim().max(120).optional(),
    businessName: z.string().trim().max(120).optional(),
    number: z.string().trim().max(32).optional(),
    accountId: idSchema.optional(),
    externalAccountId: z.string().max(200).optional(),
    tempUserToken: z.string().max(200).optional(),
    /** The referral link's `target`: the username of the account that referred this sign-up. */
    target: z.string().trim().max(60).optional(),
    /** The signing-up browser's IANA time zone: the new organisation's (its `settings.timeZone`). */
    timeZone: timeZoneSchema.optional(),
  }),
  response: ok,
});

export const signinEmail = defineRoute({
  id: "signinEmail",
  method: "POST",
  path: "/api/v1/signin/email",
  summary:
    "Start sign-in by e-mail: sends a 6-digit code when an account uses the address. The answer is the same either way, and the request counts against the address's and the network's code limits either way.",
  tag: "Authentication",
  auth: "none",
  body: z.object({ email: emailSchema }),
  response: ok,
});

export const emailVerify = defineRoute({
  id: "emailVerify",
  method: "POST",
  path: "/api/v1/email/verify",
  summary: "Submit the e-mailed code of a sign-up or sign-in; answers the session token.",
  tag: "Authentication",
  auth: "none",
  body: z.object({
    email: emailSchema,
    verificationCode: verificationCodeSchema,
    mobile: z.boolean().optional(),
  }),
  response: sessionSchema,
});

export const signinPhoneNumber = defineRoute({
  id: "signinPhoneNumber",
  method: "POST",
  path: "/api/v1/signin/phoneNumber",
  summary:
    "Start sign-in by phone: texts a 6-digit code when the number is an account's verified number. The answer is the same either way, and the request counts against the number's and the network's code limits either way.",
  tag: "Authentication",
  auth: "none",
  body: z.object({ phoneNumber: phoneNumberSchema }),
  response: ok,
});

export const signinPhoneNumberVerify = defineRoute({
  id: "signinPhoneNumberVerify",
  method: "POST",
  path: "/api/v1/signin/phoneNumber/verify",
  summary: "Submit the texted code; answers the session token.",
  tag: "Authentication",
  auth: "none",
  body: z.object({
    phoneNumber: phoneNumberSchema,
    verificationCode: verificationCodeSchema,
    mobile: z.boolean().optional(),
  }),
  response: sessionSchema,
});

export const emailRequestVerificationCode = defineRoute({
  id: "emailRequestVerificationCode",
  method: "POST",
  path: "/api/v1/email/requestVerificationCode",
  summary: "Signed in: e-mail a code to confirm this address as the user's e-mail.",
  tag: "Authentication",
  auth: "token",
  sessionOnly: true,
  body: z.object({ email: emailSchema }),
  response: ok,
});

export const emailValidateVerificationCode = defineRoute({
  id: "emailValidateVerificationCode",
  method: "POST",
  path: "/api/v1/email/validateVerificationCode",
  summary: "Signed in: submit the e-mailed code; the address becomes the user's verified e-mail.",
  tag: "Authentication",
  auth: "token",
  sessionOnly: true,
  body: z.object({ verificationCode: verificationCodeSchema }),
  response: ok,
});

export const phoneRequestVerificationCode = defineRoute({
  id: "phoneRequestVerificationCode",
  method: "POST",
  path: "/api/v1/phoneNumber/requestVerificationCode",
  summary: "Signed in: text a code to confirm this phone number.",
  tag: "Authentication",
  auth: "token",
  sessionOnly: true,
  body: z.object({ phoneNumber: phoneNumberSchema }),
  response: ok,
});

export const phoneValidateVerificationCode = defineRoute({
  id: "phoneValidateVerificationCode",
  method: "POST",
  path: "/api/v1/phoneNumber/validateVerificationCode",
  summary: "Signed in: submit the texted code; the number becomes the user's verified phone.",
  tag: "Authentication",
  auth: "token",
  sessionOnly: true,
  body: z.object({ verificationCode: verificationCodeSchema }),
  response: ok,
});

export const allocateTempUserSession = defineRoute({
  id: "allocateTempUserSession",
  method: "GET",
  path: "/api/v1/allocateTempUserSession",
  summary:
    "An anonymous session (id, token) that sign-up can later turn into a real account (tempUserToken).",
  tag: "Authentication",
  auth: "none",
  response: z.object({ success: z.literal(true), id: z.number().int(), token: z.string() }),
});

export const createOneTimeAuth = defineRoute({
  id: "createOneTimeAuth",
  method: "POST",
  path: "/api/v1/oneTimeAuth",
  summary:
    "Signed in: a one-time token (valid 5 minutes) that hands this session to another device or the app.",
  tag: "Authentication",
  auth: "token",
  sessionOnly: true,
  response: z.object({ success: z.literal(true), oneTimeToken: z.string(), expiresAt: z.string() }),
});

export const oneTimeAuth = defineRoute({
  id: "oneTimeAuth",
  method: "GET",
  path: "/api/v1/oneTimeAuth",
  summary: "Exchange a one-time token for a session (id, username, token). Single use.",
  tag: "Authentication",
  auth: "none",
  query: z.object({ oneTimeToken: z.string().min(1, { message: "Could not authenticate with token" }) }),
  response: z.object({
    success: z.literal(true),
    id: z.number().int(),
    username: z.string(),
    token: z.string(),
  }),
});

export const logout = defineRoute({
  id: "logout",
  method: "POST",
  path: "/api/v1/logout",
  summary:
    "Revoke the session token the call carries and the one-time tokens made from it; with everywhere=true, every session and one-time token of the user (sign out everywhere).",
  tag: "Authentication",
  auth: "token",
  sessionOnly: true,
  query: z.object({
    everywhere: z
      .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
      .transform((value) => value === true || value === "true" || value === "1")
      .default(false),
  }),
  response: ok,
});

export const devOutboxMessageSchema = z.object({
  id: z.number().int(),
  channel: z.enum(["email", "sms"]),
  to: z.string(),
  subject: z.string().nullable(),
  body: z.string(),
  time: z.string(),
});

export const devOutbox = defineRoute({
  id: "devOutbox",
  method: "GET",
  path: "/api/dev/outbox",
  summary: "Development only: every e-mail and SMS the server sent, newest first. 404 in production.",
  tag: "Development",
  auth: "none",
  query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
  response: z.object({ success: z.literal(true), messages: z.array(devOutboxMessageSchema) }),
});

export const authRoutes = [
  signupEmail,
  signinEmail,
  emailVerify,
  signinPhoneNumber,
  signinPhoneNumberVerify,
  emailRequestVerificationCode,
  emailValidateVerificationCode,
  phoneRequestVerificationCode,
  phoneValidateVerificationCode,
  allocateTempUserSession,
  createOneTimeAuth,
  oneTimeAuth,
  logout,
  devOutbox,
] as const;
