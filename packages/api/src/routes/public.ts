import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { publicAccountSchema } from "./accounts.ts";

/**
 * What a business shows the world (issue 22): its public page's links (each counted when clicked) and their
 * statistics, the public chat with its agent, notifications, search, invites and the mobile app's calls.
 */

export const PUBLIC_MESSAGES = {
  linkNotFound: "Link not found",
  chatNotFound: "This page has no agent to chat with.",
  chatClosed: "This agent is not taking messages yet.",
  chatLimited: "You are sending messages too fast. Wait a minute and try again.",
  chatNoSession: "Start a chat session first (GET /api/v1/allocateTempUserSession).",
  emptyMessage: "Write a message first.",
  notificationNotFound: "Notification not found",
  badInviteTarget: "Enter an e-mail address or a phone number.",
  invitesLimited: "You have sent many invitations today. Try again tomorrow.",
  supportSent: "Thank you. Our support team will answer by e-mail.",
  supportLimited: "You have sent several messages to support this hour. We will answer those first.",
} as const;

/** Most links on one page. */
export const MAX_PROFILE_LINKS = 50;
/** Messages one visitor may send to one page's agent per minute, and per hour. */
export const PUBLIC_CHAT_PER_MINUTE = 10;
export const PUBLIC_CHAT_PER_HOUR = 60;
/** Longest visitor message. */
export const PUBLIC_CHAT_MAX_LENGTH = 2000;

const SAFE_URL = /^(?:https?:\/\/|mailto:|tel:)/i;

/** A link's address: https://..., http://..., mailto: or tel: (a bare host gets https://). */
export const linkUrlSchema = z
  .string()
  .trim()
  .min(1, { message: "Enter the link's address." })
  .max(2000)
  .transform((value) => (/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value.replace(/^\/+/, "")}`))
  .refine((value) => SAFE_URL.test(value), {
    message: "Links are web addresses (https://...), mailto: or tel: links.",
  });

export const profileLinkSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  title: z.string(),
  url: z.string(),
  clicks: z.number().int(),
});
export type ProfileLink = z.infer<typeof profileLinkSchema>;

/** How the page shows: its short bio, and whether it is public at all. */
export const linksConfigSchema = z.object({
  bio: z.string().trim().max(280).default(""),
  published: z.boolean().default(true),
});
export type LinksConfig = z.infer<typeof linksConfigSchema>;

const linksAnswer = z.object({
  success: z.literal(true),
  links: z.array(profileLinkSchema),
  linksConfig: linksConfigSchema,
  username: z.string(),
});

export const getProfileLinks = defineRoute({
  id: "getProfileLinks",
  method: "GET",
  path: "/api/v1/account/links",
  summary: "The target account's link page: its ordered links with their click counts, and its settings.",
  tag: "Public profile",
  auth: "token",
  permission: "canViewOrg",
  response: linksAnswer,
});

export const saveProfileLinks = defineRoute({
  id: "saveProfileLinks",
  method: "POST",
  path: "/api/v1/account/links",
  summary:
    "Replace the target account's links (in order: title, url; a link that keeps its id keeps its count) and optionally linksConfig (bio, published).",
  tag: "Public profile",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    links: z
      .array(
        z.object({
          id: idSchema.optional(),
          title: z.string().trim().min(1, { message: "Give the link a title." }).max(100),
          url: linkUrlSchema,
        }),
      )
      .max(MAX_PROFILE_LINKS, { message: `At most ${MAX_PROFILE_LINKS} links.` }),
    linksConfig: z
      .object({ bio: z.string().trim().max(280).optional(), published: z.boolean().optional() })
      .optional()
      .describe("Only the keys given change"),
  }),
  response: linksAnswer,
});

export const linkStats = defineRoute({
  id: "linkStats",
  method: "POST",
  path: "/api/v1/stats/links",
  summary:
    "Click statistics of the target account's links: per link its total and its clicks in the last `days` days, and clicks per day (UTC dates, every day of the range).",
  tag: "Public profile",
  auth: "token",
  permission: "canViewOrg",
  body: z.object({ days: z.coerce.number().int().min(1).max(365).default(30) }),
  response: z.object({
    success: z.literal(true),
    days: z.number().int(),
    links: z.array(profileLinkSchema.extend({ periodClicks: z.number().int() })),
    series: z.array(z.object({ date: z.string(), clicks: z.number().int() })),
    totalClicks: z.number().int(),
  }),
});

export const visitProfileLink = defineRoute({
  id: "visitProfileLink",
  method: "GET",
  path: "/api/v1/links/{linkId}/visit",
  summary: "Public: count a click on a public page's link and redirect (302) to its address.",
  tag: "Public profile",
  auth: "none",
  params: z.object({ linkId: idSchema }),
  produces: "text/html",
});

/** The agent a public page chats with, and its number for the call and text buttons. */
export const publicAgentSchema = z.object({
  username: z.string(),
  displayName: z.string(),
  phoneNumber: z.string().nullable(),
  greeting: z.string().nullable(),
  acceptsMessages: z.boolean(),
});

export const publicPageSchema = z.object({
  success: z.literal(true),
  account: publicAccountSchema,
  bio: z.string(),
  links: z.array(profileLinkSchema.pick({ id: true, title: true, url: true })),
  agent: publicAgentSchema.nullable(),
  /** Whether other sites may frame its chat (the partner's allowEmbeds). */
  allowEmbeds: z.boolean(),
});
export type PublicPage = z.infer<typeof publicPageSchema>;

export const getPublicPage = defineRoute({
  id: "getPublicPage",
  method: "GET",
  path: "/api/v1/publicPage/{username}",
  summary:
    "Public: everything a public page shows (profile, bio, links, the agent to call, text or chat with). 404 for unknown, private or disabled accounts.",
  tag: "Public profile",
  auth: "none",
  params: z.object({ username: z.string().trim().min(1).max(60) }),
  response: publicPageSchema,
});

/** The visitor's anonymous session token (or `Authorization: Bearer`). */
export const visitorToken = z.string().max(200).optional().describe("The visitor's session token");

export const publicChatMessageSchema = z.object({
  id: z.number().int(),
  role: z.enum(["user", "assistant", "operator", "system"]),
  text: z.string(),
  createdAt: z.number(),
});

export const sendPublicMessage = defineRoute({
  id: "sendPublicMessage",
  method: "POST",
  path: "/api/v1/messages/{username}",
  summary: `Public chat: a visitor with an anonymous session (allocateTempUserSession; its token as Bearer or token=) writes to the page's agent (an agent's or an organisation's username). The conversation is a web-chat room of the organisation's inbox; the agent answers in the background (read it with GET /api/v1/messages/{username}). At most ${PUBLIC_CHAT_PER_MINUTE} messages a minute and ${PUBLIC_CHAT_PER_HOUR} an hour per visitor (429).`,
  tag: "Public profile",
  auth: "none",
  params: z.object({ username: z.string().trim().min(1).max(100) }),
  query: z.object({ token: visitorToken }),
  body: z.object({ text: z.string().trim().max(PUBLIC_CHAT_MAX_LENGTH) }),
  response: z.object({ success: z.literal(true), roomId: z.string(), message: publicChatMessageSchema }),
});

export const NOTIFICATION_KINDS = [
  "message",
  "missedCall",
  "taskFinished",
  "lowBalance",
  "webhookFailing",
  "support",
] as const;

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  /** Where it leads in the app. */
  link: z.string().nullable(),
  /** How many events it stands for (messages of one conversation fold into one). */
  count: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type AppNotification = z.infer<typeof notificationSchema>;

const notificationsAnswer = z.object({
  success: z.literal(true),
  notifications: z.array(notificationSchema),
  unread: z.number().int(),
});

export const listNotifications = defineRoute({
  id: "listNotifications",
  method: "GET",
  path: "/api/v1/notifications",
  summary:
    "The organisation's notifications not cleared yet, newest first (new messages, missed calls, failing webhooks; a super admin on their own account: support requests), and their count.",
  tag: "Notifications",
  auth: "token",
  permission: "canViewOrg",
  query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(30) }),
  response: notificationsAnswer,
});

export const clearNotifications = defineRoute({
  id: "clearNotifications",
  method: "POST",
  path: "/api/v1/notifications",
  summary: "Clear one notification (clear: its id) or all of them (clearAll: true).",
  tag: "Notifications",
  auth: "token",
  permission: "canViewOrg",
  body: z
    .object({ clear: idSchema.optional(), clearAll: z.boolean().optional() })
    .refine((b) => b.clear !== undefined || b.clearAll === true, {
      message: "Give clear (an id) or clearAll.",
    }),
  response: z.object({ success: z.literal(true), cleared: z.number().int(), unread: z.number().int() }),
});

export const SEARCH_TYPES = ["contact", "conversation", "agent", "task", "account"] as const;

export const searchResultSchema = z.object({
  type: z.enum(SEARCH_TYPES),
  id: z.string(),
  title: z.string(),
  subtitle: z.string(),
  /**
   * Where it opens, under the account in view: `inbox?active=<room>`, `contacts?previewContact=<id>`,
   * `agents?editAgent=<id>`, `tasks?editTask=<id>`, `org/<id>`.
   */
  link: z.string(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

const searchAnswer = z.object({ success: z.literal(true), results: z.array(searchResultSchema) });
const searchParams = z.object({ target: z.string().trim().min(1).max(100) });
const searchQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(20) });

export const search = defineRoute({
  id: "search",
  method: "GET",
  path: "/api/v1/search/{target}",
  summary:
    "Search the target account for the phrase `target`: contacts (name, number, e-mail), conversations (name, number), agents, the people of outbound tasks (name, number, e-mail; with canViewTasks) and, for a partner or reseller, the accounts below it. Case-insensitive, any part of a word (trigram indexes).",
  tag: "Search",
  auth: "token",
  permission: "canViewOrg",
  params: searchParams,
  query: searchQuery,
  response: searchAnswer,
});

export const enhancedSearch = defineRoute({
  id: "enhancedSearch",
  method: "GET",
  path: "/api/v1/enhancedSearch/{target}",
  summary:
    "Like search, and also conversations whose messages contain the words of `target` (full-text index).",
  tag: "Search",
  auth: "token",
  permission: "canViewOrg",
  params: searchParams,
  query: searchQuery,
  response: searchAnswer,
});

/** Most invitations one account may send per day. */
export const INVITES_PER_DAY = 50;

export const sendInvite = defineRoute({
  id: "sendInvite",
  method: "POST",
  path: "/api/v1/sendInvite",
  summary: `Invite someone to the product (target: an e-mail address or a phone number) with the account's referral link (/signup?ref=<username>); sent by e-mail or text. At most ${INVITES_PER_DAY} a day per account (429).`,
  tag: "Referrals",
  auth: "token",
  permission: "canViewOrg",
  body: z.object({ target: z.string().trim().min(3).max(200) }),
  response: z.object({ success: z.literal(true), kind: z.enum(["email", "phone"]), link: z.string() }),
});

export const ipCorrelator = defineRoute({
  id: "ipCorrelator",
  method: "POST",
  path: "/api/v1/ipCorrelator",
  summary:
    "Public: record a visit that came through a referral link (page, ref: the referrer's username), with the visitor's address, so a sign-up from it can be credited.",
  tag: "Referrals",
  auth: "none",
  body: z.object({ page: z.string().trim().max(500), ref: z.string().trim().min(1).max(60) }),
  response: z.object({ success: z.literal(true) }),
});

/** What a support request is about (the get-support form). */
export const SUPPORT_TOPICS = ["question", "problem", "billing", "feedback"] as const;
/** Support requests one person may send per hour. */
export const SUPPORT_PER_HOUR = 5;

export const sendSupportRequest = defineRoute({
  id: "sendSupportRequest",
  method: "POST",
  path: "/api/v1/support",
  summary: `The get-support form (help → Contact support): the request reaches the super admins' notifications and is e-mailed to them, with the sender's e-mail address to answer to and the account and page it came from. At most ${SUPPORT_PER_HOUR} an hour per person (429).`,
  tag: "Notifications",
  auth: "token",
  body: z.object({
    topic: z.enum(SUPPORT_TOPICS),
    message: z.string().trim().min(10, "Tell us a little more (at least 10 characters).").max(5000),
    /** The app page the form was opened on. */
    page: z.string().trim().max(300).optional(),
  }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});

/** Features an organisation asks to have turned on (`?requestAccess=<feature>`); sms: text messaging. */
export const ACCESS_FEATURES = ["sms"] as const;
export type AccessFeature = (typeof ACCESS_FEATURES)[number];
/** A repeated request within this time reminds no one again (the first one stands). */
export const ACCESS_REQUEST_REPEAT_MS = 24 * 3600_000;

export const ACCESS_MESSAGES = {
  sent: "Your request was sent. You will be able to use it as soon as it is turned on.",
  alreadySent: "You asked already: your request is waiting for an answer.",
  alreadyOn: "Text messaging is already turned on for your organization.",
  noOrganization: "Open an organization to request access for it.",
} as const;

const accessRequestState = z.object({
  success: z.literal(true),
  feature: z.enum(ACCESS_FEATURES),
  /** Whether the feature is on for the organisation now. */
  enabled: z.boolean(),
  /** When the organisation last asked (ms epoch), or null. */
  requestedAt: z.number().nullable(),
});

export const getAccessRequest = defineRoute({
  id: "getAccessRequest",
  method: "GET",
  path: "/api/v1/requestAccess",
  summary:
    "Whether the target organisation (or an agent account's organisation) has a feature (sms: text messaging) turned on, and when it last asked for it.",
  tag: "Notifications",
  auth: "token",
  permission: "canViewOrg",
  query: z.object({ feature: z.enum(ACCESS_FEATURES).default("sms") }),
  response: accessRequestState,
});

export const requestAccess = defineRoute({
  id: "requestAccess",
  method: "POST",
  path: "/api/v1/requestAccess",
  summary: `The requestAccess overlay: ask whoever can turn a feature on (sms: "SMS enabled", which a super admin, partner or reseller above the organisation sets) to do so. The super admins get a notification and an e-mail; the organisation's reseller and partner an e-mail at their account address. Asking again within ${ACCESS_REQUEST_REPEAT_MS / 3600_000} hours reminds no one (the answer says so).`,
  tag: "Notifications",
  auth: "token",
  permission: "canViewOrg",
  body: z.object({
    feature: z.enum(ACCESS_FEATURES),
    message: z.string().trim().max(1000).optional().describe("What the organisation wants it for"),
  }),
  response: accessRequestState.extend({ message: z.string(), sent: z.boolean() }),
});

export const checkInSchema = z.object({
  kind: z.string(),
  data: z.record(z.string(), z.unknown()),
  at: z.number(),
});

export const mobileCheckIn = defineRoute({
  id: "mobileCheckIn",
  method: "POST",
  path: "/api/v1/mobileCheckIn",
  summary:
    "The mobile app checks in (kind, default app): its platform, appVersion and push token (pushToken) for this person and the account in view.",
  tag: "Mobile app",
  auth: "token",
  sessionOnly: true,
  body: z.object({
    kind: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,40}$/)
      .default("app"),
    platform: z.enum(["Android", "iOS"]).optional(),
    appVersion: z.string().trim().max(40).optional(),
    pushToken: z.string().trim().max(500).optional(),
  }),
  response: z.object({ success: z.literal(true), checkIn: checkInSchema }),
});

export const getCheckIn = defineRoute({
  id: "getCheckIn",
  method: "GET",
  path: "/api/v1/checkIn/{kind}",
  summary: "This person's latest check-in of a kind (app: the mobile app), or null.",
  tag: "Mobile app",
  auth: "token",
  sessionOnly: true,
  params: z.object({
    kind: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,40}$/),
  }),
  response: z.object({ success: z.literal(true), checkIn: checkInSchema.nullable() }),
});

export const publicRoutes = [
  getProfileLinks,
  saveProfileLinks,
  linkStats,
  visitProfileLink,
  getPublicPage,
  sendPublicMessage,
  listNotifications,
  clearNotifications,
  search,
  enhancedSearch,
  sendInvite,
  ipCorrelator,
  sendSupportRequest,
  getAccessRequest,
  requestAccess,
  mobileCheckIn,
  getCheckIn,
] as const;
