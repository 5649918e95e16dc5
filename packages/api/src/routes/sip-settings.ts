import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";

/**
 * SIP developer settings (call catalogue "Developer settings": ip, label, route, registration data; SIP
 * capture query sipCallId, format). Per organisation: the IP allow-list of sources whose INVITEs the SIP edge
 * accepts, outbound routes (the organisation's own trunk), a registration of our server as a user agent to
 * the business's PBX, and the captures of every SIP message of recent calls.
 */

export const SIP_MESSAGES = {
  noOrganization: "SIP settings belong to an organisation: choose an organisation or one of its agents.",
  badIp: "Enter an IP address (203.0.113.7) or a CIDR range (203.0.113.0/24).",
  duplicateIp: "This address is already on the allow-list.",
  tooManyIps: "An organisation can have at most 50 allow-list entries.",
  ipNotFound: "Allow-list entry not found",
  routeNotFound: "Outbound route not found",
  tooManyRoutes: "An organisation can have at most 20 outbound routes.",
  badHost: "Enter a host name or IP address.",
  privateHost: "This address is on a private network and cannot be reached from Switchboard.",
  registrationNotFound: "No registration is set up.",
  sipOff:
    "SIP is off on this server, so it cannot register with a PBX. Ask the platform's operator to turn it on.",
  agentNotFound: "Choose one of this organisation's agents.",
  captureNotFound: "No SIP capture of this call.",
} as const;

export const MAX_SIP_ALLOWLIST = 50;
export const MAX_SIP_ROUTES = 20;

/** An IPv4/IPv6 address or CIDR range, as typed (spaces trimmed). */
export const sipIpSchema = z
  .string()
  .trim()
  .max(64)
  .refine(
    (value) =>
      z.ipv4().safeParse(value).success ||
      z.ipv6().safeParse(value).success ||
      z.cidrv4().safeParse(value).success ||
      z.cidrv6().safeParse(value).success,
    { message: SIP_MESSAGES.badIp },
  );

export const sipAllowEntrySchema = z.object({
  id: z.number().int(),
  ip: z.string(),
  label: z.string(),
  createdAt: z.number(),
});
export type SipAllowEntry = z.infer<typeof sipAllowEntrySchema>;

export const listSipIpWhitelist = defineRoute({
  id: "listSipIpWhitelist",
  method: "GET",
  path: "/api/v2/sip/ipWhitelist",
  summary:
    "The organisation's SIP allow-list (an array): the addresses and CIDR ranges whose INVITEs reach its agents. Every other source is answered 403 and shows in the SIP captures.",
  tag: "SIP",
  auth: "token",
  permission: "canEditOrg",
  response: z.array(sipAllowEntrySchema),
});

export const addSipIpWhitelist = defineRoute({
  id: "addSipIpWhitelist",
  method: "POST",
  path: "/api/v2/sip/ipWhitelist",
  summary: "Allow a source (ip: an address or a CIDR range, label).",
  tag: "SIP",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ ip: sipIpSchema, label: z.string().trim().max(100).default("") }),
  response: z.object({ success: z.literal(true), entry: sipAllowEntrySchema }),
});

export const deleteSipIpWhitelist = defineRoute({
  id: "deleteSipIpWhitelist",
  method: "DELETE",
  path: "/api/v2/sip/ipWhitelist",
  summary: "Remove the allow-list entry with this ip (or id).",
  tag: "SIP",
  auth: "token",
  permission: "canEditOrg",
  body: z
    .object({ ip: z.string().trim().max(64).optional(), id: idSchema.optional() })
    .refine((value) => value.ip !== undefined || value.id !== undefined, { message: "Give ip or id." }),
  response: z.object({ success: z.literal(true), deleted: z.number().int() }),
});

export const sipTransportSchema = z.enum(["udp", "tcp"]);

const hostSchema = z
  .string()
  .trim()
  .min(1, { message: SIP_MESSAGES.badHost })
  .max(253)
  .refine(
    (value) =>
      /^[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*\.?$/.test(value) ||
      z.ipv4().safeParse(value).success ||
      z.ipv6().safeParse(value.replace(/^\[|\]$/g, "")).success,
    { message: SIP_MESSAGES.badHost },
  );
const portSchema = z.coerce.number().int().min(1).max(65535);
/** A SIP user part (extension, account name): no spaces, quotes or separators. */
const sipUserSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9\-_.!~*'()&=+$,;?/%]+$/, { message: "Use letters, digits and - _ . only." });

export const sipRouteInputSchema = z.object({
  /** Updates the route with this id; without it a route is added. */
  id: idSchema.optional(),
  name: z.string().trim().min(1).max(100),
  host: hostSchema,
  port: portSchema.default(5060),
  transport: sipTransportSchema.default("udp"),
  username: sipUserSchema.optional(),
  /** Stored encrypted; omitted on update keeps the stored one, "" clears it. */
  password: z.string().max(200).optional(),
  /** Destination number prefixes this route carries (`+1`, `+4420`); none means every number. */
  prefixes: z
    .array(
      z
        .string()
        .trim()
        .regex(/^\+?\d{1,15}$/, { message: "A prefix is digits, optionally after +." }),
    )
    .max(50)
    .default([]),
});

export const sipRouteSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  transport: sipTransportSchema,
  username: z.string().nullable(),
  /** The password masked (`••••`), or null when none is stored. */
  password: z.string().nullable(),
  prefixes: z.array(z.string()),
  createdAt: z.number(),
});
export type SipRoute = z.infer<typeof sipRouteSchema>;

export const listSipOutboundRoutes = defineRoute({
  id: "listSipOutboundRoutes",
  method: "GET",
  path: "/api/v2/sip/outboundRoutes",
  summary:
    "Where the organisation's outbound calls go: its own trunks (host, port, transport, credentials, number prefixes). Passwords are never answered.",
  tag: "SIP",
  auth: "token",
  permission: "canEditOrg",
  response: z.object({ success: z.literal(true), routes: z.array(sipRouteSchema) }),
});

export const saveSipOutboundRoute = defineRoute({
  id: "saveSipOutboundRoute",
  method: "POST",
  path: "/api/v2/sip/outboundRoutes",
  summary:
    "Add a route, or update the one with route.id. A host on a private network answers 400 unless the operator allowed it (OUTBOUND_ALLOWLIST).",
  tag: "SIP",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ route: sipRouteInputSchema }),
  response: z.object({ success: z.literal(true), route: sipRouteSchema }),
});

export const deleteSipOutboundRoute = defineRoute({
  id: "deleteSipOutboundRoute",
  method: "DELETE",
  path: "/api/v2/sip/outboundRoutes",
  summary: "Remove the outbound route with this id.",
  tag: "SIP",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ id: idSchema }),
  response: z.object({ success: z.literal(true), deleted: z.number().int() }),
});

export const sipRegistrationStateSchema = z.enum(["registering", "registered", "failed", "stopped"]);
export type SipRegistrationState = z.infer<typeof sipRegistrationStateSchema>;

export const sipRegistrationInputSchema = z.object({
  /** The PBX or trunk's registrar. */
  host: hostSchema,
  port: portSchema.default(5060),
  transport: sipTransportSchema.default("udp"),
  /** The extension (user part of the address of record). */
  username: sipUserSchema,
  /** The digest user name when it differs from the extension. */
  authUsername: sipUserSchema.optional(),
  /** Stored encrypted; omitted on update keeps the stored one. */
  password: z.string().max(200).optional(),
  /** The domain of the address of record (default: host). */
  domain: hostSchema.optional(),
  /** Seconds asked for; refreshed before they run out. */
  expires: z.coerce.number().int().min(60).max(86_400).default(300),
  /** The agent that answers calls to this extension. */
  agentId: idSchema,
});

export const sipRegistrationSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  transport: sipTransportSchema,
  username: z.string(),
  authUsername: z.string().nullable(),
  domain: z.string().nullable(),
  password: z.string().nullable(),
  expires: z.number().int(),
  agentId: z.number().int(),
  state: sipRegistrationStateSchema,
  /** Why the last attempt failed (the registrar's status line or a timeout). */
  lastError: z.string().nullable(),
  /** When the registrar last accepted us, and until when (ms epoch). */
  registeredAt: z.number().nullable(),
  expiresAt: z.number().nullable(),
  updatedAt: z.number(),
});
export type SipRegistration = z.infer<typeof sipRegistrationSchema>;

export const getSipRegistration = defineRoute({
  id: "getSipRegistration",
  method: "GET",
  path: "/api/v2/sip/registration",
  summary:
    "Our server's registration as a user agent to the organisation's PBX (null when none), with its live state.",
  tag: "SIP",
  auth: "token",
  permission: "canEditOrg",
  response: z.object({
    success: z.literal(true),
    registration: sipRegistrationSchema.nullable(),
    /** Whether this server speaks SIP (SIP_PORT): when it does not, a registration cannot be saved. */
    sipEnabled: z.boolean(),
  }),
});

export const saveSipRegistration = defineRoute({
  id: "saveSipRegistration",
  method: "POST",
  path: "/api/v2/sip/registration",
  summary:
    "Register (again) to the PBX with this registration data: REGISTER with digest authentication (SHA-256 or MD5), refreshed before it expires. Calls to the extension reach agentId.",
  tag: "SIP",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ registration: sipRegistrationInputSchema }),
  response: z.object({ success: z.literal(true), registration: sipRegistrationSchema }),
});

export const deleteSipRegistration = defineRoute({
  id: "deleteSipRegistration",
  method: "DELETE",
  path: "/api/v2/sip/registration",
  summary: "Unregister from the PBX (REGISTER with Expires 0) and forget the registration.",
  tag: "SIP",
  auth: "token",
  permission: "canEditOrg",
  response: z.object({ success: z.literal(true), deleted: z.number().int() }),
});

export const sipCaptureFormatSchema = z.enum(["json", "text", "pcap"]);

export const sipCaptureCallSchema = z.object({
  sipCallId: z.string(),
  firstAt: z.number(),
  lastAt: z.number(),
  messages: z.number().int(),
  /** The first request's line (`INVITE sip:12@host`) and its final status, when answered. */
  method: z.string(),
  requestUri: z.string(),
  finalStatus: z.number().int().nullable(),
  /** The far end (`udp 203.0.113.7:5060`). */
  remote: z.string(),
  /** True when the SIP edge refused the source (outside every allow-list). */
  refused: z.boolean(),
});
export type SipCaptureCall = z.infer<typeof sipCaptureCallSchema>;

export const sipCaptureMessageSchema = z.object({
  at: z.number(),
  direction: z.enum(["in", "out"]),
  transport: sipTransportSchema,
  /** Sender and receiver, `address:port`. */
  from: z.string(),
  to: z.string(),
  /** The start line (`INVITE sip:...` or `SIP/2.0 200 OK`). */
  firstLine: z.string(),
  /** The whole message with secrets redacted. */
  text: z.string(),
});
export type SipCaptureMessage = z.infer<typeof sipCaptureMessageSchema>;

export const getSipCaptures = defineRoute({
  id: "getSipCaptures",
  method: "GET",
  path: "/api/v2/sip/captures",
  summary:
    "SIP captures of the organisation's recent calls (kept SIP_CAPTURE_RETENTION_HOURS). Without sipCallId: the calls, newest first; with it: every message of that call. format=text answers the messages as text, format=pcap as a libpcap file (synthesised UDP/IP headers) for Wireshark. Digest responses and credentials are redacted.",
  tag: "SIP",
  auth: "token",
  permission: "canEditOrg",
  query: z.object({
    sipCallId: z.string().trim().min(1).max(300).optional(),
    format: sipCaptureFormatSchema.default("json"),
  }),
  response: z.object({
    success: z.literal(true),
    calls: z.array(sipCaptureCallSchema),
    messages: z.array(sipCaptureMessageSchema),
  }),
  produces: "application/vnd.tcpdump.pcap",
});

export const sipSettingsRoutes = [
  listSipIpWhitelist,
  addSipIpWhitelist,
  deleteSipIpWhitelist,
  listSipOutboundRoutes,
  saveSipOutboundRoute,
  deleteSipOutboundRoute,
  getSipRegistration,
  saveSipRegistration,
  deleteSipRegistration,
  getSipCaptures,
];
