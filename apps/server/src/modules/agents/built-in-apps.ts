import type { AppFunction } from "@switchboard/api";

/**
 * The apps that ship with Switchboard: the catalogue, their auth parameters and the JSON schemas of the
 * functions they give an agent. Running the functions belongs to the agent runtime.
 */
export type AppDefinition = {
  appId: string;
  appVersion: string;
  name: string;
  description: string;
  /** Parameters the installer provides (`dependencies.providers.auth.parameters.properties`). */
  authParameters: Record<
    string,
    {
      type: "string";
      description: string;
      default: string;
      /** Stored encrypted, answered masked; revealed or rotated only on purpose (appSecret). */
      secret?: true;
      /** An address the server calls: checked by the outbound guard when saved. */
      format?: "uri";
    }
  >;
  functions: AppFunction[];
};

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

export const BUILT_IN_APPS: readonly AppDefinition[] = [
  {
    appId: "schedule",
    appVersion: "1.0.0",
    name: "Calendar booking",
    description:
      "Finds free times and books appointments: in the connected calendar integration when there is one, else in the account's own schedule.",
    authParameters: {},
    functions: [
      {
        name: "checkAvailability",
        description: "List free appointment times on a day.",
        parameters: object(
          {
            date: {
              type: "string",
              format: "date",
              description: "The day, YYYY-MM-DD, in the agent's time zone.",
            },
            durationMinutes: { type: "integer", minimum: 5, maximum: 480, default: 30 },
          },
          ["date"],
        ),
      },
      {
        name: "bookAppointment",
        description: "Book an appointment at a free time.",
        parameters: object(
          {
            start: { type: "string", format: "date-time", description: "Start time with offset." },
            durationMinutes: { type: "integer", minimum: 5, maximum: 480, default: 30 },
            name: { type: "string", description: "The caller's name." },
            phoneNumber: { type: "string" },
            email: { type: "string", format: "email" },
            notes: { type: "string" },
          },
          ["start", "name"],
        ),
      },
    ],
  },
  {
    appId: "call-transfer",
    appVersion: "1.0.0",
    name: "Call transfer",
    description: "Transfers the call to a person or number (confirmTransfers asks the caller first).",
    authParameters: {},
    functions: [
      {
        name: "transferCall",
        description:
          'Transfer the current call to one of the agent\'s transfer destinations (by name, e.g. "sales"). cold: the caller is put through at once; warm: you first tell the person who is calling and why (summary), then join them, and if nobody answers you take a message.',
        parameters: object(
          {
            destination: {
              type: "string",
              description:
                "The destination's name from the agent's transfer destinations (or an E.164 number).",
            },
            mode: { type: "string", enum: ["cold", "warm"], default: "cold" },
            reason: { type: "string", description: "Why the call is transferred (told to the recipient)." },
            summary: {
              type: "string",
              description: "Warm transfers: one or two sentences said to the person before the caller joins.",
            },
          },
          ["destination"],
        ),
      },
    ],
  },
  {
    appId: "keypad",
    appVersion: "1.0.0",
    name: "Keypad",
    description:
      "Lets the agent press keys on a call (to walk a phone menu) and collect a number the caller types on their keypad.",
    authParameters: {},
    functions: [
      {
        name: "sendDtmf",
        description: "Press keys on the phone line (a phone menu's options). Digits 0-9, * and #.",
        parameters: object(
          {
            digits: { type: "string", pattern: "^[0-9*#A-Da-d]{1,32}$", description: "The keys, in order." },
          },
          ["digits"],
        ),
      },
      {
        name: "collectDigits",
        description:
          "Wait for the caller to type a number on their keypad (an account number, a date of birth), ended by # or a pause. Ask for it first in the same answer.",
        parameters: object({
          field: {
            type: "string",
            description:
              "Where to keep the number in the call's data (letters, digits and _), e.g. accountNumber.",
          },
          maxDigits: { type: "integer", minimum: 1, maximum: 32, default: 16 },
          timeoutSeconds: {
            type: "integer",
            minimum: 1,
            maximum: 60,
            default: 8,
            description: "How long to wait for the first key and between keys.",
          },
        }),
      },
    ],
  },
  {
    appId: "end-call",
    appVersion: "1.0.0",
    name: "End call",
    description: "Lets the agent hang up when the conversation is over.",
    authParameters: {},
    functions: [
      {
        name: "endCall",
        description: "End the current call.",
        parameters: object({ reason: { type: "string" } }),
      },
    ],
  },
  {
    appId: "send-sms",
    appVersion: "1.0.0",
    name: "Send SMS",
    description: "Sends a text message from the agent's number (a confirmation, a link, directions).",
    authParameters: {},
    functions: [
      {
        name: "sendSms",
        description: "Send a text message.",
        parameters: object(
          {
            to: { type: "string", description: "E.164 number; default the caller." },
            message: { type: "string", maxLength: 1600 },
          },
          ["message"],
        ),
      },
    ],
  },
  {
    appId: "collect-data",
    appVersion: "1.0.0",
    name: "Collect data",
    description: "Stores structured answers from the conversation (the fields are set in the app's data).",
    authParameters: {},
    functions: [
      {
        name: "saveData",
        description: "Save the structured fields collected from the caller.",
        parameters: object(
          { fields: { type: "object", additionalProperties: { type: ["string", "number", "boolean"] } } },
          ["fields"],
        ),
      },
    ],
  },
  {
    appId: "webhook",
    appVersion: "1.0.0",
    name: "Webhook call",
    description:
      "Sends an HTTP POST with a JSON payload to the configured URL and gives the answer to the agent.",
    authParameters: {
      url: { type: "string", description: "The https address the POST goes to.", default: "", format: "uri" },
      secret: {
        type: "string",
        description: "Sent as the X-Switchboard-Signature HMAC key.",
        default: "",
        secret: true,
      },
    },
    functions: [
      {
        name: "callWebhook",
        description: "POST a JSON payload to the configured webhook.",
        parameters: object({ payload: { type: "object" } }, ["payload"]),
      },
    ],
  },
];

export function findBuiltInApp(appId: string, appVersion: string): AppDefinition | undefined {
  return BUILT_IN_APPS.find((app) => app.appId === appId && app.appVersion === appVersion);
}
