import { z } from "zod";
import { idSchema, pageNumberSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { queryBooleanSchema } from "./hierarchy.ts";

/**
 * The inbox (call catalogue §7 "Inbox" and the activity calls): rooms between an organisation's agents and
 * outside addresses, their messages, read state per user, reactions, rating, blocking, the AI agent switch,
 * and the realtime WebSocket that carries every change to the organisation's open browsers.
 *
 * A data table of schemas and route definitions (~570 lines), like the other route files: one per call.
 */

/** Inbox page size (product spec §9). */
export const INBOX_PAGE_SIZE = 20;
/** Largest media file of a text message (MMS carriers accept about 5 MB). */
export const CHAT_MEDIA_MAX_BYTES = 5 * 1024 * 1024;
export const CHAT_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export const REACTIONS = ["👍", "❤️", "😂", "😮", "😢", "🙏"] as const;

export const INBOX_MESSAGES = {
  listFailed: "Network response was not ok",
  cannotStart: "Unable to start conversation with this user.",
  noAccountId: "no account id",
  roomNotFound: "Conversation not found",
  messageNotFound: "Message not found",
  emptyMessage: "Enter a message or attach a picture.",
  smsDisabled: "Text messaging is not enabled for this organization.",
  noAgentNumber: "The agent has no phone number to text from.",
  blocked: "This number is blocked.",
  badAddress: "Enter a phone number or an e-mail address.",
  mediaType: "Attach a PNG, JPEG, GIF or WebP picture.",
  mediaSize: "Pictures can be at most 5 MB.",
  webSocketOnly: "Connect to this address with a WebSocket.",
} as const;

const roomId = z.string().trim().min(1).max(100);
const idNumber = idSchema;

export const roomStatusSchema = z.enum(["open", "closed", "archived"]);
export const inboxFolderSchema = z.enum(["priority", "agent"]);
export type InboxFolder = z.infer<typeof inboxFolderSchema>;

export const reactionSchema = z.object({ reaction: z.string(), userId: z.number().int(), mine: z.boolean() });

export const inboxMessageSchema = z.object({
  id: z.number().int(),
  roomId: z.string(),
  /** user: the outside party; assistant: the AI agent; operator: a person of the organisation. */
  role: z.enum(["user", "assistant", "operator", "system"]),
  text: z.string(),
  media: z.array(z.string()),
  senderUserId: z.number().int().nullable(),
  senderName: z.string().nullable(),
  senderAddress: z.string().nullable(),
  status: z.enum(["complete", "failed"]),
  error: z.string().nullable(),
  deliveryStatus: z.enum(["queued", "sent", "delivered", "failed", "received"]).nullable(),
  reactions: z.array(reactionSchema),
  /** ms epoch */
  createdAt: z.number(),
  /**
   * The call this line was said on (its conversation's uuid): a person's calls share their thread with their
   * texts. Null or absent for a text.
   */
  callUuid: z.string().nullable().optional(),
});
export type InboxMessage = z.infer<typeof inboxMessageSchema>;

export const roomSummarySchema = z.object({
  id: z.string(),
  agentId: z.number().int(),
  agentName: z.string(),
  agentNumber: z.string().nullable(),
  channel: z.enum(["web", "sms", "voice"]),
  status: roomStatusSchema,
  folder: inboxFolderSchema,
  aiAgentEnabled: z.boolean(),
  rating: z.number().int().nullable(),
  externalAddress: z.string().nullable(),
  createdAt: z.number(),
  lastMessageAt: z.number().nullable(),
});

/** A conversation of the list (product spec §3: room, lastMessage, username, id). */
export const conversationListItemSchema = z.object({
  id: z.string(),
  roomId: z.string(),
  room: roomSummarySchema,
  lastMessage: z.object({ text: z.string(), createdAt: z.number().nullable() }).nullable(),
  /** The outside party's address. */
  username: z.string(),
  /** The contact's name, the carrier's name when it is a person's, or the formatted address. */
  displayName: z.string(),
  contactId: z.number().int().nullable(),
  unread: z.boolean(),
  unreadCount: z.number().int(),
});
export type ConversationListItem = z.infer<typeof conversationListItemSchema>;

export const conversationListSchema = z.object({
  success: z.literal(true),
  rooms: z.array(conversationListItemSchema),
  totalRooms: z.number().int(),
});

/** A conversation (product spec §3): roomId, uuid, users, rating, aiAgentEnabled, reactions, messages. */
export const conversationDetailSchema = z.object({
  success: z.literal(true),
  roomId: z.string(),
  /** The current session (SMS exchange) of the room, null before the first message. */
  uuid: z.string().nullable(),
  users: z.array(
    z.object({
      kind: z.enum(["agent", "user", "external"]),
      username: z.string(),
      displayName: z.string(),
    }),
  ),
  rating: z.number().int().nullable(),
  aiAgentEnabled: z.boolean(),
  reactions: z.array(reactionSchema.extend({ messageId: z.number().int() })),
  room: roomSummarySchema,
  conversation: conversationListItemSchema,
  blocked: z.boolean(),
  messages: z.array(inboxMessageSchema),
});
export type ConversationDetail = z.infer<typeof conversationDetailSchema>;

export const conversationListQuerySchema = z.object({
  /** true: the agent tab (shown as Junk); false: priority. */
  isAgent: queryBooleanSchema.default(false),
  page: pageNumberSchema.default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(INBOX_PAGE_SIZE),
  unread: queryBooleanSchema.default(false),
  /** true: archived conversations only; otherwise open and closed ones. */
  archived: queryBooleanSchema.default(false),
});

export const listConversations = defineRoute({
  id: "listConversations",
  method: "GET",
  path: "/api/v1/conversations",
  summary:
    "The target account's conversations, newest first, 20 a page: the priority tab, or the agent tab (Junk) with isAgent=true; unread=true keeps only those with messages the caller has not read. Each has its room, last message, the outside party and the caller's unread count.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  query: conversationListQuerySchema,
  response: conversationListSchema,
});

export const getConversation = defineRoute({
  id: "getConversation",
  method: "GET",
  path: "/api/v1/conversations/{roomId}",
  summary:
    "A conversation with its latest messages (up to 200), users, reactions, rating and AI-agent switch. A numeric id instead of a room id answers the conversation list of that account (organisation or agent, below the target) with the list parameters.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  params: z.object({ roomId }),
  query: conversationListQuerySchema,
  response: z.union([conversationDetailSchema, conversationListSchema]),
});

export const listAgentConversations = defineRoute({
  id: "listAgentConversations",
  method: "GET",
  path: "/api/v1/agentConversations/{id}",
  summary: "The conversation list of one agent account (below the target), with the list parameters.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  params: z.object({ id: idNumber }),
  query: conversationListQuerySchema,
  response: conversationListSchema,
});

export const sendConversationMessage = defineRoute({
  id: "sendConversationMessage",
  method: "POST",
  path: "/api/v1/conversations/{roomId}/messages",
  summary:
    "A person of the organisation writes in a conversation: the message is stored, sent to the outside party through the SMS provider from the agent's number, and reaches every open inbox. Media are URLs from /api/v1/chat/media.",
  tag: "Inbox",
  auth: "token",
  permission: "canEditOrg",
  params: z.object({ roomId }),
  body: z.object({
    text: z.string().trim().max(1600).default(""),
    media: z.array(z.string().url().max(500)).max(5).default([]),
  }),
  response: z.object({ success: z.literal(true), message: inboxMessageSchema }),
});

const aiAgentAnswer = z.object({ success: z.literal(true), roomId: z.string(), aiAgentEnabled: z.boolean() });

export const getAiAgentEnabled = defineRoute({
  id: "getAiAgentEnabled",
  method: "GET",
  path: "/api/v1/conversations/{roomId}/aiAgentEnabled",
  summary: "Whether the AI agent answers new messages in this conversation.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  params: z.object({ roomId }),
  response: aiAgentAnswer,
});

export const setAiAgentEnabled = defineRoute({
  id: "setAiAgentEnabled",
  method: "POST",
  path: "/api/v1/conversations/{roomId}/aiAgentEnabled",
  summary: "Switch the AI agent on or off for this conversation (off hands it to people).",
  tag: "Inbox",
  auth: "token",
  permission: "canEditOrg",
  params: z.object({ roomId }),
  body: z.object({ aiAgentEnabled: z.boolean() }),
  response: aiAgentAnswer,
});

export const setConversationFolder = defineRoute({
  id: "setConversationFolder",
  method: "POST",
  path: "/api/v1/conversations/{roomId}/folder",
  summary: "Move a conversation to the priority tab or to Junk (agent).",
  tag: "Inbox",
  auth: "token",
  permission: "canEditOrg",
  params: z.object({ roomId }),
  body: z.object({ folder: inboxFolderSchema }),
  response: z.object({ success: z.literal(true), room: roomSummarySchema }),
});

const roomBody = z.object({ roomId });
const roomAnswer = z.object({ success: z.literal(true), room: roomSummarySchema });

export const closeConversation = defineRoute({
  id: "closeConversation",
  method: "POST",
  path: "/api/v1/closeConversation",
  summary:
    "Close a conversation (a closed one is archived by closing it again). A new message from the outside party opens it again.",
  tag: "Inbox",
  auth: "token",
  permission: "canEditOrg",
  body: roomBody.extend({ archive: z.boolean().default(false) }),
  response: roomAnswer,
});

export const unarchiveConversation = defineRoute({
  id: "unarchiveConversation",
  method: "POST",
  path: "/api/v1/unarchiveConversation",
  summary: "Bring an archived (or closed) conversation back: it is open again.",
  tag: "Inbox",
  auth: "token",
  permission: "canEditOrg",
  body: roomBody,
  response: roomAnswer,
});

export const createExternalDestinationProfile = defineRoute({
  id: "createExternalDestinationProfile",
  method: "POST",
  path: "/api/v1/createExternalDestinationProfile",
  summary:
    "The profile of an outside address (phone number or e-mail) the organisation writes to: its username is what getGroupConversationRoomId takes among its users. Answers the existing profile for a known address.",
  tag: "Inbox",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ address: z.string().trim().min(3).max(200) }),
  response: z.object({
    success: z.literal(true),
    profile: z.object({ username: z.string(), address: z.string(), kind: z.enum(["phone", "email"]) }),
  }),
});

export const getGroupConversationRoomId = defineRoute({
  id: "getGroupConversationRoomId",
  method: "POST",
  path: "/api/v1/getGroupConversationRoomId",
  summary:
    "The room between an agent (agentId; default the target agent or the organisation's first agent with a number) and the outside users (external profile usernames or addresses): the existing one, or a new one. 400 'Unable to start conversation with this user.' when no room can be made.",
  tag: "Inbox",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    users: z.array(z.string().trim().min(1).max(200)).min(1).max(1),
    agentId: idNumber.optional(),
  }),
  response: z.object({ success: z.literal(true), roomId: z.string(), created: z.boolean() }),
});

export const getBlock = defineRoute({
  id: "getBlock",
  method: "GET",
  path: "/api/v1/block/{id}",
  summary:
    "Is the outside address or username id (or the outside party of room id) blocked by the organisation? both=true also answers whether the other side blocked us (never, for outside addresses).",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  params: z.object({ id: z.string().trim().min(1).max(200) }),
  query: z.object({ both: queryBooleanSchema.default(false) }),
  response: z.object({
    success: z.literal(true),
    blocked: z.boolean(),
    blockedBy: z.boolean().optional(),
  }),
});

export const setBlock = defineRoute({
  id: "setBlock",
  method: "POST",
  path: "/api/v1/block",
  summary:
    "Block (or with blocked=false unblock) an outside address or a room's outside party: its messages go to Junk, are never answered by the AI agent and cannot be replied to.",
  tag: "Inbox",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ targetUsername: z.string().trim().min(1).max(200), blocked: z.boolean().default(true) }),
  response: z.object({ success: z.literal(true), address: z.string(), blocked: z.boolean() }),
});

export const publicMessagesSchema = z.object({
  success: z.literal(true),
  profile: z.object({
    username: z.string(),
    displayName: z.string(),
    image: z.string().nullable(),
    greeting: z.string().nullable(),
    acceptsMessages: z.boolean(),
  }),
  messages: z.array(
    inboxMessageSchema.pick({ id: true, role: true, text: true, media: true, createdAt: true }),
  ),
});

export const getPublicMessages = defineRoute({
  id: "getPublicMessages",
  method: "GET",
  path: "/api/v1/messages/{username}",
  summary:
    "Public: the messaging profile of an agent account by username (name, image, greeting), and with the caller's own token the caller's messages with it. preview=true answers the profile only; limit bounds the messages (default 50).",
  tag: "Inbox",
  auth: "none",
  params: z.object({ username: z.string().trim().min(1).max(100) }),
  query: z.object({
    preview: queryBooleanSchema.default(false),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    token: z.string().max(200).optional().describe("The visitor's own session token"),
  }),
  response: publicMessagesSchema,
});

export const markUnread = defineRoute({
  id: "markUnread",
  method: "POST",
  path: "/api/v1/activity/markUnread",
  summary: "Mark a priority conversation unread for the caller.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  body: roomBody,
  response: z.object({ success: z.literal(true), roomId: z.string(), unread: z.literal(true) }),
});

export const markAgentUnread = defineRoute({
  id: "markAgentUnread",
  method: "POST",
  path: "/api/v1/activityAgent/markUnread",
  summary: "Mark a Junk (agent tab) conversation unread for the caller.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  body: roomBody,
  response: z.object({ success: z.literal(true), roomId: z.string(), unread: z.literal(true) }),
});

export const rateConversation = defineRoute({
  id: "rateConversation",
  method: "POST",
  path: "/api/v1/rateConvo",
  summary: "Rate a conversation 1 to 5 (null clears the rating).",
  tag: "Inbox",
  auth: "token",
  permission: "canEditOrg",
  body: roomBody.extend({ rating: z.number().int().min(1).max(5).nullable() }),
  response: roomAnswer,
});

const reactionBody = z.object({ roomId, messageId: idNumber, reaction: z.enum(REACTIONS) });
const reactionAnswer = z.object({
  success: z.literal(true),
  messageId: z.number().int(),
  reactions: z.array(reactionSchema),
});

export const addReaction = defineRoute({
  id: "addReaction",
  method: "POST",
  path: "/api/v1/reaction",
  summary: "React to a message (once per reaction and user).",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  body: reactionBody,
  response: reactionAnswer,
});

export const removeReaction = defineRoute({
  id: "removeReaction",
  method: "DELETE",
  path: "/api/v1/reaction",
  summary: "Take back the caller's reaction to a message.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  body: reactionBody,
  response: reactionAnswer,
});

export const uploadChatMedia = defineRoute({
  id: "uploadChatMedia",
  method: "POST",
  path: "/api/v1/chat/media",
  summary:
    "Multipart upload of a picture for a text message (one file part; PNG, JPEG, GIF or WebP recognised by content; at most 5 MB). Answers its URL for sendConversationMessage.",
  tag: "Inbox",
  auth: "token",
  permission: "canEditOrg",
  consumes: "multipart/form-data",
  response: z.object({
    success: z.literal(true),
    url: z.string(),
    contentType: z.string(),
    size: z.number().int(),
  }),
});

export const activityItemSchema = z.object({
  roomId: z.string(),
  username: z.string(),
  displayName: z.string(),
  unreadCount: z.number().int(),
  lastMessage: z.string().nullable(),
  lastMessageAt: z.number().nullable(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

const activityAnswer = z.object({
  success: z.literal(true),
  activity: z.array(activityItemSchema),
  total: z.number().int(),
});
const activityQuery = z.object({ simple: queryBooleanSchema.default(false) });
const clearActivityBody = z.object({
  /** The outside party (address) whose conversations are cleared (marked read). */
  username: z.string().trim().min(1).max(200).optional(),
  roomId: roomId.optional(),
  clearAll: z.boolean().default(false),
});
const clearAnswer = z.object({ success: z.literal(true), cleared: z.number().int() });

export const getActivity = defineRoute({
  id: "getActivity",
  method: "GET",
  path: "/api/v1/activity",
  summary:
    "Priority activity: the caller's unread priority conversations (simple=true answers the count only, activity empty).",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  query: activityQuery,
  response: activityAnswer,
});

export const clearActivity = defineRoute({
  id: "clearActivity",
  method: "POST",
  path: "/api/v1/activity",
  summary:
    "Clear priority activity: mark one room (roomId), one outside party's rooms (username) or all (clearAll) read for the caller.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  body: clearActivityBody,
  response: clearAnswer,
});

export const getAgentActivity = defineRoute({
  id: "getAgentActivity",
  method: "GET",
  path: "/api/v1/activityAgent",
  summary: "Junk activity: the caller's unread conversations of the agent tab.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  query: activityQuery,
  response: activityAnswer,
});

export const clearAgentActivity = defineRoute({
  id: "clearAgentActivity",
  method: "POST",
  path: "/api/v1/activityAgent",
  summary: "Clear junk activity: one room, one outside party or all, marked read for the caller.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  body: clearActivityBody,
  response: clearAnswer,
});

/**
 * Realtime events on the WebSocket, as JSON text frames. After `hello`, a connection that gave `since`
 * (the last message id it saw) receives every later message of its organisation, then `ready`.
 */
export type RealtimeEvent =
  | { type: "hello"; orgId: number; lastMessageId: number }
  | { type: "ready"; lastMessageId: number }
  | {
      type: "message";
      roomId: string;
      folder: InboxFolder;
      message: InboxMessage;
      /** The room as a list row (its unread fields as seen by nobody yet), so lists update at once. */
      conversation?: ConversationListItem;
    }
  | { type: "room"; roomId: string }
  | { type: "read"; roomId: string | null; userId: number }
  | { type: "reaction"; roomId: string; messageId: number }
  | { type: "handset"; number: string }
  | { type: "contacts" }
  /** The organisation's SIP settings changed state (its registration to a PBX). */
  | { type: "sip"; what: "registration" }
  /** The organisation's notifications changed: `unread` is how many are not cleared. */
  | { type: "notification"; unread: number }
  /** Tasks changed (created, ran, paused): lists and counts reload; `listId` when one list's did. */
  | { type: "tasks"; listId: number | null }
  /**
   * A voice call of the organisation started or ended, or one side finished a sentence (`caption`, final
   * captions only): the live calls list and a watched call's transcript follow it.
   */
  | { type: "call"; what: "started" | "ended"; uuid: string }
  | { type: "call"; what: "caption"; uuid: string; role: "caller" | "agent" | "destination"; text: string };

export const realtime = defineRoute({
  id: "realtime",
  method: "GET",
  path: "/api/v1/realtime",
  summary:
    "WebSocket: the organisation's new messages, read state, room, reaction and contact changes, across server instances. since=<last message id> catches up on missed messages after a reconnect. A plain GET answers 426.",
  tag: "Inbox",
  auth: "token",
  permission: "canViewOrg",
  query: z.object({ since: z.coerce.number().int().min(0).optional() }),
  produces: "websocket",
});

export const inboxRoutes = [
  listConversations,
  getConversation,
  listAgentConversations,
  sendConversationMessage,
  getAiAgentEnabled,
  setAiAgentEnabled,
  setConversationFolder,
  closeConversation,
  unarchiveConversation,
  createExternalDestinationProfile,
  getGroupConversationRoomId,
  getBlock,
  setBlock,
  getPublicMessages,
  markUnread,
  markAgentUnread,
  rateConversation,
  addReaction,
  removeReaction,
  uploadChatMedia,
  getActivity,
  clearActivity,
  getAgentActivity,
  clearAgentActivity,
  realtime,
] as const;
