import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";

/**
 * Phone numbers (call catalogue "Phone numbers": number, country, prefix, strict, city, region, phrase): the
 * marketplace (search by area-code prefix, by locality, by vanity phrase; assign to an agent; release),
 * bring-your-own numbers reached by forwarding or by the business's SIP trunk, forwarding checks and
 * caller-ID verification, and the outbound calls an agent places.
 */

export const NUMBER_MESSAGES = {
  noOrganization: "Phone numbers belong to an organisation: choose an organisation or one of its agents.",
  agentRequired: "Choose the agent that answers this number.",
  notAvailable: "This number is no longer available. Search again and pick another.",
  notFound: "Phone number not found",
  alreadyAssigned: "This number is already assigned to an agent.",
  badNumber: "Enter a phone number such as +15035550199.",
  badPhrase: "Enter a phrase of 2 to 7 letters or digits.",
  providerFailed: "The number provider refused the request. Try again later.",
  forwardingNotArrived:
    "The test call did not arrive. Check that forwarding is turned on at your carrier, then try again.",
  codeWrong: "Could not verify code.",
  codeExpired: "The code has expired. Start a new verification call.",
  noCallInProgress: "No verification call is in progress for this number. Start one first.",
  countryNotAllowed: "Calls to this country are not allowed for your organisation.",
  concurrentLimit: "Too many calls in progress for your organisation. Wait for one to end.",
  dailyLimit: "Your organisation reached its daily limit of outbound calls.",
  noCallerId: "The agent has no phone number to call from. Assign it a number first.",
  callNotFound: "Call not found",
  planNoNumbers:
    "Your plan does not include phone numbers. Upgrade to a plan that includes phone numbers to give your agents one.",
  planLimit: "Your plan's phone numbers are all in use. Upgrade to a plan that includes more phone numbers.",
  walletShort:
    "Your wallet does not have enough funds for this number's first month. Add funds to your wallet, then try again.",
} as const;

/** Vanity letters as the phone keypad spells them (2 ABC ... 9 WXYZ). */
export const KEYPAD_LETTERS: Record<string, string> = {
  "2": "ABC",
  "3": "DEF",
  "4": "GHI",
  "5": "JKL",
  "6": "MNO",
  "7": "PQRS",
  "8": "TUV",
  "9": "WXYZ",
};

/** A vanity phrase as keypad digits ("FLOWERS" -> "3569377"); digits stay, other characters drop. */
export function phraseToDigits(phrase: string): string {
  let digits = "";
  for (const char of phrase.toUpperCase()) {
    if (/\d/.test(char)) digits += char;
    else {
      const key = Object.entries(KEYPAD_LETTERS).find(([, letters]) => letters.includes(char))?.[0];
      if (key) digits += key;
    }
  }
  return digits;
}

/** Countries the marketplace offers numbers in (ISO 3166 alpha-2) with their calling codes. */
export const NUMBER_COUNTRIES = { US: "1", CA: "1", GB: "44" } as const;
export type NumberCountry = keyof typeof NUMBER_COUNTRIES;

const country = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(Object.keys(NUMBER_COUNTRIES) as [NumberCountry, ...NumberCountry[]]))
  .default("US");
const e164 = z
  .string()
  .trim()
  .max(32)
  .transform((value) => value.replace(/[\s().-]/g, ""))
  .pipe(z.string().regex(/^\+?[1-9]\d{6,14}$/, NUMBER_MESSAGES.badNumber))
  .transform((value) => (value.startsWith("+") ? value : value.length === 10 ? `+1${value}` : `+${value}`));
const limit = z.coerce.number().int().min(1).max(50).default(20);

export const availableNumberSchema = z.object({
  number: z.string().describe("E.164"),
  country: z.string(),
  region: z.string().describe("State or province (two letters in the US)"),
  locality: z.string().describe("City"),
  /** The vanity letters when found by phrase. */
  vanity: z.string().nullable(),
  provider: z.string(),
  capabilities: z.object({ voice: z.boolean(), sms: z.boolean() }),
  monthlyPriceCents: z
    .number()
    .int()
    .describe("What the organisation pays a month for this number under its plan (0: included)"),
});
export type AvailableNumber = z.infer<typeof availableNumberSchema>;

const searchAnswer = z.object({ success: z.literal(true), numbers: z.array(availableNumberSchema) });

export const searchNumbersByPrefix = defineRoute({
  id: "searchNumbersByPrefix",
  method: "POST",
  path: "/api/v2/phoneNumber/search/local/prefix",
  summary:
    "Available local numbers whose national number starts with `prefix` (an area code, or more digits). `strict` false widens to nearby area codes of the same region when too few match.",
  tag: "Phone numbers",
  auth: "token",
  permission: "canSelectNumber",
  body: z.object({
    country,
    prefix: z
      .string()
      .trim()
      .regex(/^\d{1,7}$/, "Enter an area code or the first digits (1 to 7 digits)."),
    strict: z.boolean().default(false),
    limit,
  }),
  response: searchAnswer,
});

export const searchNumbersByLocality = defineRoute({
  id: "searchNumbersByLocality",
  method: "POST",
  path: "/api/v2/phoneNumber/search/local/locality",
  summary: "Available local numbers in a city and/or region (state or province).",
  tag: "Phone numbers",
  auth: "token",
  permission: "canSelectNumber",
  body: z
    .object({
      country,
      city: z.string().trim().max(100).optional(),
      region: z.string().trim().max(100).optional(),
      limit,
    })
    .refine((value) => Boolean(value.city || value.region), { message: "Enter a city or a region." }),
  response: searchAnswer,
});

export const searchNumbersByPhrase = defineRoute({
  id: "searchNumbersByPhrase",
  method: "POST",
  path: "/api/v2/phoneNumber/search/local/phrase",
  summary:
    "Available numbers that spell a vanity phrase on the keypad (letters to digits: FLOWERS = 3569377) at the end of the number.",
  tag: "Phone numbers",
  auth: "token",
  permission: "canSelectNumber",
  body: z.object({
    country,
    phrase: z
      .string()
      .trim()
      .max(40)
      .refine((value) => {
        const digits = phraseToDigits(value);
        return digits.length >= 2 && digits.length <= 7;
      }, NUMBER_MESSAGES.badPhrase),
    prefix: z
      .string()
      .trim()
      .regex(/^\d{0,3}$/)
      .optional(),
    limit,
  }),
  response: searchAnswer,
});

export const numberRecordSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  country: z.string(),
  region: z.string(),
  locality: z.string(),
  /** `marketplace` (bought through the provider) or `byo` (the business keeps it at its carrier). */
  kind: z.enum(["marketplace", "byo"]),
  provider: z.string(),
  /** How a bring-your-own number reaches us. */
  byoMethod: z.enum(["forwarding", "sip"]).nullable(),
  carrier: z.string().nullable(),
  agentId: z.number().int().nullable(),
  agentName: z.string().nullable(),
  forwardingVerifiedAt: z.number().nullable(),
  capabilities: z.object({ voice: z.boolean(), sms: z.boolean() }),
  createdAt: z.number(),
  /**
   * In the list of numbers: what it costs a month under the organisation's plan (0: included; null: the plan
   * no longer allows it), when it renews, and the renewal the wallet could not pay (released at releaseAt).
   */
  billing: z
    .object({
      monthlyPriceCents: z.number().int().nullable(),
      renewsAt: z.number(),
      pastDue: z
        .object({ since: z.number(), amountCents: z.number().int(), releaseAt: z.number() })
        .nullable(),
    })
    .optional(),
});
export type PhoneNumber = z.infer<typeof numberRecordSchema>;

export const listPhoneNumbers = defineRoute({
  id: "listPhoneNumbers",
  method: "GET",
  path: "/api/v2/phoneNumber",
  summary: "The organisation's phone numbers (bought and bring-your-own), with the agent each one reaches.",
  tag: "Phone numbers",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({ success: z.literal(true), numbers: z.array(numberRecordSchema) }),
});

const assignAnswer = z.object({
  success: z.literal(true),
  phoneNumber: numberRecordSchema,
  /** The agent's `switchboardPhoneNumber` now. */
  switchboardPhoneNumber: z.string().nullable(),
});

export const assignPhoneNumber = defineRoute({
  id: "assignPhoneNumber",
  method: "POST",
  path: "/api/v2/phoneNumber/assign",
  summary:
    "Gives an agent a number: buys `number` (from a search) from the provider, or moves one of the organisation's numbers, and points its calls and texts at the agent (the target agent account, or `agentId`). The agent's previous number stays the organisation's, unassigned.",
  tag: "Phone numbers",
  auth: "token",
  permission: "canSelectNumber",
  body: z.object({ number: e164, country: country.optional(), agentId: idSchema.optional() }),
  response: assignAnswer,
});

export const releasePhoneNumber = defineRoute({
  id: "releasePhoneNumber",
  method: "POST",
  path: "/api/v2/phoneNumber/release",
  summary:
    "Releases one of the organisation's numbers: back to the provider (a bring-your-own number is only forgotten); its agent keeps no number.",
  tag: "Phone numbers",
  auth: "token",
  permission: "canSelectNumber",
  body: z.object({ number: e164 }),
  response: z.object({ success: z.literal(true), released: z.string() }),
});

export const FORWARDING_CARRIERS = ["att", "verizon", "tmobile", "landline", "other"] as const;
export type ForwardingCarrier = (typeof FORWARDING_CARRIERS)[number];

export const assignByoNumber = defineRoute({
  id: "assignByoNumber",
  method: "POST",
  path: "/api/v2/phoneNumber/byo/assign",
  summary:
    "Bring your own number: a number the business keeps at its carrier reaches the agent by call forwarding (`method` forwarding, with its `carrier` for the forwarding codes) or by its SIP trunk (`method` sip: calls to sip:<number>@our SIP endpoint).",
  tag: "Phone numbers",
  auth: "token",
  permission: "canSelectNumber",
  body: z.object({
    number: e164,
    method: z.enum(["forwarding", "sip"]).default("forwarding"),
    carrier: z.enum(FORWARDING_CARRIERS).optional(),
    agentId: idSchema.optional(),
  }),
  response: assignAnswer,
});

export const verifyCellForwarding = defineRoute({
  id: "verifyCellForwarding",
  method: "POST",
  path: "/api/v1/verifyCellForwarding",
  summary:
    "Places a test call to the business number `number` and confirms it arrived, forwarded, at the agent's number (the sandbox carrier forwards numbers whose forwarding was set up with the codes shown).",
  tag: "Phone numbers",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ number: e164, agentId: idSchema.optional() }),
  response: z.object({
    success: z.literal(true),
    verified: z.boolean(),
    message: z.string(),
    /** The test call's id and the number it reached. */
    callId: z.string(),
    arrivedAt: z.string().nullable(),
  }),
});

export const validateVerifiedNumber = defineRoute({
  id: "validateVerifiedNumber",
  method: "POST",
  path: "/api/v1/validateVerifiedNumber",
  summary:
    "Caller-ID verification: with `listen` true, calls `phoneNumber` and reads a 6-digit code aloud (the answer carries the sandbox call's spoken text in development); then send `verificationCode` to prove the number is yours. Verified numbers may be used as the caller ID of outbound calls.",
  tag: "Phone numbers",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    phoneNumber: e164,
    listen: z.boolean().optional(),
    verificationCode: z
      .string()
      .trim()
      .regex(/^\d{6}$/, "Enter the 6-digit code.")
      .optional(),
  }),
  response: z.object({
    success: z.literal(true),
    status: z.enum(["calling", "verified"]),
    callId: z.string().nullable(),
    /** Sandbox carrier only: what the call said, so a developer can read the code without a phone. */
    spokenText: z.string().nullable(),
  }),
});

export const OUTBOUND_OUTCOMES = ["answered", "voicemail", "no_answer", "busy", "failed"] as const;
export type OutboundOutcome = (typeof OUTBOUND_OUTCOMES)[number];

/** How an outbound call ended, as the server's outbound calls (and the voice worker that carried it) say. */
export type PlacedCall = {
  callId: string;
  outcome: OutboundOutcome;
  answeredBy?: "person" | "machine";
  amdDecisionMs?: number;
  conversation?: { roomId: string; uuid: string };
  durationSeconds: number;
  error?: string;
};

export const outboundCallSchema = z.object({
  callId: z.string(),
  agentId: z.number().int(),
  to: z.string(),
  from: z.string().nullable(),
  taskId: z.string().nullable(),
  route: z.string().describe("sandbox, sip or the provider that carried the call"),
  status: z.enum(["dialing", "ringing", "in-progress", "completed"]),
  outcome: z.enum(OUTBOUND_OUTCOMES).nullable(),
  answeredBy: z.enum(["person", "machine"]).nullable(),
  amdDecisionMs: z.number().int().nullable(),
  conversation: z.object({ roomId: z.string(), uuid: z.string() }).nullable(),
  durationSeconds: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.number(),
});
export type OutboundCall = z.infer<typeof outboundCallSchema>;

export const placeOutboundCall = defineRoute({
  id: "placeOutboundCall",
  method: "POST",
  path: "/api/v2/outboundCall",
  summary:
    "The agent calls `to` (from its own number unless `from` names a verified one). Answers at once with the call's id; follow it with GET /api/v2/outboundCall/{callId}. Guards: destination country allowed for the organisation, concurrent and daily limits.",
  tag: "Phone numbers",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    agentId: idSchema.optional(),
    to: e164,
    from: e164.optional(),
    variables: z.record(z.string(), z.string().max(500)).optional(),
  }),
  response: z.object({ success: z.literal(true), call: outboundCallSchema }),
});

export const getOutboundCall = defineRoute({
  id: "getOutboundCall",
  method: "GET",
  path: "/api/v2/outboundCall/{callId}",
  summary: "One outbound call of the organisation: state, outcome, answering-machine decision and timing.",
  tag: "Phone numbers",
  auth: "token",
  permission: "canViewOrg",
  params: z.object({ callId: z.string().trim().min(1).max(64) }),
  response: z.object({ success: z.literal(true), call: outboundCallSchema }),
});

export const listOutboundCalls = defineRoute({
  id: "listOutboundCalls",
  method: "GET",
  path: "/api/v2/outboundCall",
  summary: "The organisation's latest outbound calls (newest first, at most 50).",
  tag: "Phone numbers",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({ success: z.literal(true), calls: z.array(outboundCallSchema) }),
});

export const sandboxCalleeSchema = z.object({
  number: z.string(),
  behaviour: z.enum(["person", "voicemail", "no_answer", "busy", "ivr"]),
  /** What the simulated person says when answering (person), or the greeting (voicemail). */
  says: z.string().nullable(),
});

export const setSandboxCallee = defineRoute({
  id: "setSandboxCallee",
  method: "POST",
  path: "/api/v1/sandbox/callee",
  summary:
    "Sandbox carrier: how the simulated callee at `number` answers the organisation's outbound calls — as a person (speaking `says`), as voicemail (a greeting, then a beep), as a two-level phone menu (ivr: 1 then 3 reaches new orders), or not at all (no_answer, busy). Numbers not set answer as a person.",
  tag: "Carrier",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    number: e164,
    behaviour: z.enum(["person", "voicemail", "no_answer", "busy", "ivr"]),
    says: z.string().trim().max(500).optional(),
  }),
  response: z.object({ success: z.literal(true), callee: sandboxCalleeSchema }),
});

export const dialNumber = defineRoute({
  id: "dialNumber",
  method: "GET",
  path: "/api/v1/voice/dial",
  summary:
    "WebSocket: the sandbox phone (Developers) calls `number`, one of the organisation's numbers, as a caller would; the agent it is assigned to answers (its published copy). The messages are those of /api/v1/voice/call. A plain GET answers 426.",
  tag: "Voice",
  auth: "token",
  permission: "canViewOrg",
  writes: true,
  query: z.object({ number: e164 }),
  produces: "websocket",
});

export const numberRoutes = [
  searchNumbersByPrefix,
  searchNumbersByLocality,
  searchNumbersByPhrase,
  listPhoneNumbers,
  assignPhoneNumber,
  releasePhoneNumber,
  assignByoNumber,
  verifyCellForwarding,
  validateVerifiedNumber,
  placeOutboundCall,
  getOutboundCall,
  listOutboundCalls,
  setSandboxCallee,
  dialNumber,
] as const;
