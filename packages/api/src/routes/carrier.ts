import { z } from "zod";
import { defineRoute } from "../route.ts";

/**
 * Text-message carriers: the sandbox carrier's phone simulator (a simulated handset that texts the
 * organisation's agent numbers and receives what they send) and the Twilio inbound-message webhook.
 */

export const CARRIER_MESSAGES = {
  unknownNumber: "No agent has this number.",
  badSignature: "Invalid Twilio signature",
  notTwilio: "Twilio is not configured on this server.",
  badNumber: "Enter a phone number such as +15035550199.",
} as const;

const phone = z.string().trim().min(3).max(32);

export const handsetMessageSchema = z.object({
  id: z.number().int(),
  direction: z.enum(["inbound", "outbound"]),
  /** inbound: handset -> agent number; outbound: agent number -> handset. */
  from: z.string(),
  to: z.string(),
  text: z.string(),
  media: z.array(z.string()),
  status: z.string(),
  createdAt: z.number(),
});
export type HandsetMessage = z.infer<typeof handsetMessageSchema>;

export const sandboxInboundSms = defineRoute({
  id: "sandboxInboundSms",
  method: "POST",
  path: "/api/v1/sandbox/sms/inbound",
  summary:
    "Phone simulator: the simulated handset `from` texts the agent number `to` of the target's organisation. The sandbox carrier hands it to the server exactly as a carrier webhook would.",
  tag: "Carrier",
  auth: "token",
  permission: "canViewOrg",
  body: z.object({
    from: phone,
    to: phone,
    text: z.string().trim().max(1600).default(""),
    media: z.array(z.string().url()).max(5).default([]),
  }),
  response: z.object({ success: z.literal(true), carrierMessageId: z.string(), roomId: z.string() }),
});

export const sandboxHandset = defineRoute({
  id: "sandboxHandset",
  method: "GET",
  path: "/api/v1/sandbox/sms/handset",
  summary:
    "Phone simulator: the organisation's agent numbers, and the messages between the simulated handset `number` and them, oldest first.",
  tag: "Carrier",
  auth: "token",
  permission: "canViewOrg",
  query: z.object({ number: phone.optional() }),
  response: z.object({
    success: z.literal(true),
    agentNumbers: z.array(z.object({ agentId: z.number().int(), agentName: z.string(), number: z.string() })),
    messages: z.array(handsetMessageSchema),
  }),
});

export const twilioInboundSms = defineRoute({
  id: "twilioInboundSms",
  method: "POST",
  path: "/api/v1/carrier/twilio/sms",
  summary:
    "Twilio's inbound-message webhook (form-encoded). Checks X-Twilio-Signature against TWILIO_AUTH_TOKEN and PUBLIC_URL; a MessageSid seen before is acknowledged without a second message. Answers empty TwiML.",
  tag: "Carrier",
  auth: "none",
  produces: "text/xml",
});

export const twilioMessageStatus = defineRoute({
  id: "twilioMessageStatus",
  method: "POST",
  path: "/api/v1/carrier/twilio/status",
  summary: "Twilio's message status callback (form-encoded, signed): delivery state of an outbound message.",
  tag: "Carrier",
  auth: "none",
  produces: "text/xml",
});

export const carrierRoutes = [
  sandboxInboundSms,
  sandboxHandset,
  twilioInboundSms,
  twilioMessageStatus,
] as const;
