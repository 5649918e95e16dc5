import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";

/**
 * Webhooks (call catalogue "Developer settings": url, label, type): an organisation's endpoints receive its
 * events as signed POSTs (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the endpoint's `whsec_` secret),
 * delivered at least once and retried with growing delays. Every payload is an envelope
 * `{ type, version, timestamp, data }`; `version` changes only when a payload changes incompatibly.
 */

export const WEBHOOK_PAYLOAD_VERSION = "2026-11-24";

export const WEBHOOK_MESSAGES = {
  notFound: "Webhook not found",
  deliveryNotFound: "Delivery not found",
  noOrganization: "Webhooks belong to an organisation: choose an organisation or one of its agents.",
  tooMany: "An organisation can have at most 20 webhooks.",
  disabledNotice:
    "A webhook kept failing and was turned off. Check the receiver, then turn it on again under Developers.",
} as const;

/** Most endpoints one organisation may have. */
export const MAX_WEBHOOKS = 20;

/** The event types an endpoint may select (`type`), or `all`. */
export const WEBHOOK_EVENT_TYPES = [
  "call.started",
  "call.ended",
  "call.analyzed",
  "message.received",
  "message.sent",
  "conversation.closed",
  "task.completed",
  "contact.created",
  "appointment.booked",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const ms = () => z.number().int().describe("ms since the epoch");

const messageData = z.object({
  conversationId: z.string().describe("The inbox conversation (room) id"),
  messageId: z.number().int(),
  agentId: z.number().int(),
  channel: z.enum(["sms", "web", "voice"]),
  from: z.string().nullable(),
  to: z.string().nullable(),
  text: z.string(),
  media: z.array(z.string()),
  sender: z
    .enum(["contact", "agent", "operator"])
    .describe("Who wrote it: the outside person, the AI agent or a team member"),
  deliveryStatus: z.string().nullable(),
  createdAt: ms(),
});

const callData = z.object({
  callId: z.string(),
  agentId: z.number().int(),
  direction: z.enum(["inbound", "outbound", "web"]),
  from: z.string().nullable(),
  to: z.string().nullable(),
  startedAt: ms(),
});

/** The `data` of each event type, as delivered. */
export const webhookEventDataSchemas = {
  "call.started": callData,
  "call.ended": callData.extend({
    endedAt: ms(),
    durationSeconds: z.number(),
    outcome: z.string().nullable(),
    transcript: z.array(z.object({ role: z.string(), text: z.string(), at: ms().nullable() })),
    recordingUrl: z.string().nullable().describe("Present when the call was recorded"),
  }),
  "call.analyzed": z.object({
    callId: z.string(),
    conversationId: z.string().describe("The inbox conversation (room) id"),
    agentId: z.number().int(),
    channel: z.enum(["sms", "web", "voice"]),
    summary: z.string(),
    successful: z.boolean().nullable().describe("The verdict against the agent's success rule; null: none"),
    successEvaluation: z.string(),
    fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    undetermined: z.array(z.string()).describe("Fields (and `success`) the analysis could not determine"),
    model: z.string(),
    analyzedAt: ms(),
  }),
  "message.received": messageData,
  "message.sent": messageData,
  "conversation.closed": z.object({
    conversationId: z.string(),
    agentId: z.number().int(),
    channel: z.string(),
    externalAddress: z.string().nullable(),
    closedAt: ms(),
  }),
  "task.completed": z.object({
    taskId: z.string(),
    agentId: z.number().int().nullable(),
    name: z.string().nullable(),
    result: z.record(z.string(), z.unknown()),
    completedAt: ms(),
  }),
  "contact.created": z.object({
    contactId: z.number().int(),
    displayName: z.string(),
    addresses: z.array(z.string()),
    data: z.record(z.string(), z.unknown()),
    createdAt: ms(),
  }),
  "appointment.booked": z.object({
    appointmentId: z.number().int(),
    agentId: z.number().int(),
    title: z.string(),
    startsAt: ms(),
    endsAt: ms().nullable(),
    name: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    conversationId: z.string().nullable(),
  }),
  "webhook.test": z.object({ webhookId: z.number().int(), message: z.string() }),
} as const satisfies Record<WebhookEventType | "webhook.test", z.ZodType>;

export type WebhookEventData<T extends keyof typeof webhookEventDataSchemas> = z.input<
  (typeof webhookEventDataSchemas)[T]
>;

/** The envelope of every delivery of event type `type`. */
export function webhookEnvelopeSchema<T extends keyof typeof webhookEventDataSchemas>(type: T) {
  return z.object({
    type: z.literal(type),
    version: z.literal(WEBHOOK_PAYLOAD_VERSION),
    timestamp: z.string().describe("When the event happened (ISO 8601)"),
    organizationId: z.number().int(),
    data: webhookEventDataSchemas[type],
  });
}

export const webhookTypeSchema = z.enum(["all", ...WEBHOOK_EVENT_TYPES]);

const webAddress = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/, message: "Enter a web address (https://...)." }));

export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  label: z.string(),
  type: webhookTypeSchema,
  /** null while it receives events; set when it kept failing (or was turned off). */
  disabledAt: z.number().nullable(),
  disabledReason: z.string().nullable(),
  /** Deliveries that failed for good in a row. */
  failureStreak: z.number().int(),
  createdAt: z.number(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookAttemptSchema = z.object({
  at: z.number(),
  durationMs: z.number().int(),
  /** The receiver's HTTP status; null when no answer came (refused, timed out). */
  status: z.number().int().nullable(),
  excerpt: z.string().nullable(),
  error: z.string().nullable(),
});

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  webhookId: z.number().int(),
  url: z.string(),
  messageId: z.string(),
  eventType: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attemptCount: z.number().int(),
  nextAttemptAt: z.number().nullable(),
  createdAt: z.number(),
  payload: z.record(z.string(), z.unknown()),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

const secretAnswer = z.object({
  success: z.literal(true),
  webhook: webhookSchema,
  /** The signing secret (`whsec_...`): shown this once. */
  secret: z.string(),
});

export const listWebhooks = defineRoute({
  id: "listWebhooks",
  method: "GET",
  path: "/api/v2/webhooks",
  summary: "The organisation's webhook endpoints (an array), newest first. Secrets are never listed.",
  tag: "Webhooks",
  auth: "token",
  permission: "canEditOrg",
  response: z.array(webhookSchema),
});

export const createWebhook = defineRoute({
  id: "createWebhook",
  method: "POST",
  path: "/api/v2/webhooks",
  summary:
    "Add an endpoint (url, label, type: one event type or all). Answers its signing secret once. A private address answers 400 unless the operator allowed it.",
  tag: "Webhooks",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    url: webAddress,
    label: z.string().trim().max(100).default(""),
    type: webhookTypeSchema.default("all"),
  }),
  response: secretAnswer,
});

export const deleteWebhook = defineRoute({
  id: "deleteWebhook",
  method: "DELETE",
  path: "/api/v2/webhooks",
  summary: "Remove the endpoint with this url (or id), with its deliveries.",
  tag: "Webhooks",
  auth: "token",
  permission: "canEditOrg",
  body: z
    .object({ url: z.string().trim().max(2000).optional(), id: idSchema.optional() })
    .refine((value) => value.url !== undefined || value.id !== undefined, { message: "Give url or id." }),
  response: z.object({ success: z.literal(true), deleted: z.number().int() }),
});

export const testWebhook = defineRoute({
  id: "testWebhook",
  method: "POST",
  path: "/api/v2/webhooks/test",
  summary:
    "Send a signed webhook.test event to the endpoint with this url at once (not queued, not retried); answers what the receiver said.",
  tag: "Webhooks",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ url: z.string().trim().max(2000) }),
  response: z.object({
    success: z.literal(true),
    ok: z.boolean(),
    status: z.number().int().nullable(),
    excerpt: z.string().nullable(),
    error: z.string().nullable(),
    messageId: z.string(),
  }),
});

export const rotateWebhookSecret = defineRoute({
  id: "rotateWebhookSecret",
  method: "POST",
  path: "/api/v2/webhooks/{webhookId}/secret",
  summary:
    "Replace the endpoint's signing secret; answers the new one once. For 24 hours deliveries carry signatures under both.",
  tag: "Webhooks",
  auth: "token",
  permission: "canEditOrg",
  params: z.object({ webhookId: idSchema }),
  response: secretAnswer,
});

export const setWebhookEnabled = defineRoute({
  id: "setWebhookEnabled",
  method: "POST",
  path: "/api/v2/webhooks/{webhookId}/enabled",
  summary: "Turn an endpoint on (after it was turned off for failing) or off.",
  tag: "Webhooks",
  auth: "token",
  permission: "canEditOrg",
  params: z.object({ webhookId: idSchema }),
  body: z.object({ enabled: z.boolean() }),
  response: z.object({ success: z.literal(true), webhook: webhookSchema }),
});

export const listWebhookDeliveries = defineRoute({
  id: "listWebhookDeliveries",
  method: "GET",
  path: "/api/v2/webhooks/deliveries",
  summary: "The organisation's latest deliveries (of one endpoint with webhookId), each with its attempts.",
  tag: "Webhooks",
  auth: "token",
  permission: "canEditOrg",
  query: z.object({
    webhookId: idSchema.optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  }),
  response: z.object({ success: z.literal(true), deliveries: z.array(webhookDeliverySchema) }),
});

export const resendWebhookDelivery = defineRoute({
  id: "resendWebhookDelivery",
  method: "POST",
  path: "/api/v2/webhooks/deliveries/{deliveryId}/resend",
  summary:
    "Deliver this event again (same webhook-id, so receivers can tell), with a fresh series of retries.",
  tag: "Webhooks",
  auth: "token",
  permission: "canEditOrg",
  params: z.object({ deliveryId: idSchema }),
  response: z.object({ success: z.literal(true), delivery: webhookDeliverySchema }),
});

export const webhookRoutes = [
  listWebhooks,
  createWebhook,
  deleteWebhook,
  testWebhook,
  rotateWebhookSecret,
  setWebhookEnabled,
  listWebhookDeliveries,
  resendWebhookDelivery,
] as const;
