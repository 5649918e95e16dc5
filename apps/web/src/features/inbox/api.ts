import {
  addReaction,
  type ConversationDetail,
  type ConversationListItem,
  clearActivity,
  clearAgentActivity,
  closeConversation,
  createExternalDestinationProfile,
  getActivity,
  getAgentActivity,
  getConversation,
  getGroupConversationRoomId,
  INBOX_PAGE_SIZE,
  type InboxFolder,
  type InboxMessage,
  listConversations,
  markAgentUnread,
  markUnread,
  type RealtimeEvent,
  rateConversation,
  removeReaction,
  sandboxHandset,
  sandboxInboundSms,
  sendConversationMessage,
  setAiAgentEnabled,
  setBlock,
  setConversationFolder,
  unarchiveConversation,
  uploadChatMedia,
} from "@switchboard/api";
import {
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useAccountKey, useAccountState } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { getTargetAccountId, readToken } from "../../lib/session.ts";
import { applyCallEvent } from "../voice/live-calls-api.ts";
import { connectRealtime, type RealtimeStatus } from "./realtime.ts";

export type { ConversationDetail, ConversationListItem, InboxFolder, InboxMessage };

export const INBOX_KEY = "inbox";

export function useConversations(folder: InboxFolder, unread: boolean, archived = false) {
  const [accountId, viewingAs] = useAccountKey();
  return useInfiniteQuery({
    queryKey: [INBOX_KEY, "list", accountId, viewingAs, folder, unread, archived],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiClient.call(listConversations, {
        query: { isAgent: folder === "agent", page: pageParam, pageSize: INBOX_PAGE_SIZE, unread, archived },
        signal,
      }),
    getNextPageParam: (last, pages) =>
      pages.length * INBOX_PAGE_SIZE < last.totalRooms ? pages.length : undefined,
  });
}

export function useConversation(roomId: string | null) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: [INBOX_KEY, "room", accountId, viewingAs, roomId],
    enabled: Boolean(roomId),
    queryFn: async ({ signal }) => {
      const answer = await apiClient.call(getConversation, { params: { roomId: roomId ?? "" }, signal });
      if (!("messages" in answer)) throw new Error("Network response was not ok");
      return answer;
    },
  });
}

const ACTIVITY_STORAGE_PREFIX = "activity-";

/**
 * Priority or junk activity (unread conversations). For an agent looking at its own account the last
 * answer is cached in local storage, so the badge shows at once on the next visit (spec §4.3).
 */
export function useActivity(folder: InboxFolder) {
  const [accountId, viewingAs] = useAccountKey();
  const { view } = useAccountState();
  const ownAgent = view.account.accountType === "agent" && view.homeAccount?.id === view.account.id;
  const storageKey = `${ACTIVITY_STORAGE_PREFIX}${folder}-${accountId}`;
  const query = useQuery({
    queryKey: [INBOX_KEY, "activity", accountId, viewingAs, folder],
    queryFn: ({ signal }) =>
      apiClient.call(folder === "agent" ? getAgentActivity : getActivity, {
        query: { simple: false },
        signal,
      }),
    ...(ownAgent
      ? {
          initialData: () => {
            try {
              const saved = window.localStorage.getItem(storageKey);
              return saved ? JSON.parse(saved) : undefined;
            } catch {
              return undefined;
            }
          },
          initialDataUpdatedAt: 0,
        }
      : {}),
  });
  useEffect(() => {
    if (ownAgent && query.data) window.localStorage.setItem(storageKey, JSON.stringify(query.data));
  }, [ownAgent, query.data, storageKey]);
  return query;
}

/**
 * Marks the lists and counts stale. A load already in flight is kept rather than aborted and sent again
 * (issue #23 item 10: no GET fired twice with the first aborted); realtime events patch the caches too.
 */
function invalidateLists(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: [INBOX_KEY, "list"] }, { cancelRefetch: false });
  void queryClient.invalidateQueries({ queryKey: [INBOX_KEY, "activity"] }, { cancelRefetch: false });
}

/** Adds a message to the open conversation's cache unless it is already there (no duplicates). */
export function withMessage(detail: ConversationDetail | undefined, message: InboxMessage) {
  if (!detail || detail.roomId !== message.roomId) return detail;
  const index = detail.messages.findIndex((m) => m.id === message.id);
  if (index >= 0) {
    const messages = [...detail.messages];
    messages[index] = { ...message, reactions: detail.messages[index]?.reactions ?? message.reactions };
    return { ...detail, messages };
  }
  return { ...detail, messages: [...detail.messages, message].sort((a, b) => a.id - b.id) };
}

type ListPage = { success: true; rooms: ConversationListItem[]; totalRooms: number };
type ListData = { pages: ListPage[]; pageParams: unknown[] };
type MessageEvent = Extract<RealtimeEvent, { type: "message" }>;

/**
 * A new message moves its conversation to the top of the cached lists at once (the refetch that follows
 * reconciles): its last message, and one more unread when it came from outside.
 */
export function withListMessage(
  data: ListData | undefined,
  list: { folder: InboxFolder; unread: boolean; archived: boolean },
  event: MessageEvent,
): ListData | undefined {
  if (!data || list.archived) return data;
  const pages = data.pages.map((page) => ({
    ...page,
    rooms: page.rooms.filter((r) => r.roomId !== event.roomId),
  }));
  const existing = data.pages.flatMap((p) => p.rooms).find((r) => r.roomId === event.roomId);
  if (list.folder !== event.folder) return existing ? { ...data, pages } : data;
  const inbound = event.message.role === "user";
  const base = existing ?? event.conversation;
  if (!base) return data;
  const row: ConversationListItem = {
    ...base,
    lastMessage: { text: event.message.text, createdAt: event.message.createdAt },
    room: {
      ...base.room,
      lastMessageAt: event.message.createdAt,
      status: event.conversation?.room.status ?? base.room.status,
    },
    unread: existing ? existing.unread || inbound : inbound,
    unreadCount: existing ? existing.unreadCount + (inbound ? 1 : 0) : inbound ? 1 : 0,
  };
  if (list.unread && !row.unread) return { ...data, pages };
  const [first, ...rest] = pages;
  if (!first) return data;
  return {
    ...data,
    pages: [
      { ...first, rooms: [row, ...first.rooms], totalRooms: first.totalRooms + (existing ? 0 : 1) },
      ...rest,
    ],
  };
}

/** Applies one realtime event to the cached inbox. */
export function applyRealtimeEvent(queryClient: QueryClient, event: RealtimeEvent) {
  switch (event.type) {
    case "message":
      for (const [key, data] of queryClient.getQueriesData<ListData>({ queryKey: [INBOX_KEY, "list"] })) {
        const [, , , , folder, unread, archived] = key as [
          string,
          string,
          number,
          string,
          InboxFolder,
          boolean,
          boolean,
        ];
        const next = withListMessage(data, { folder, unread, archived }, event);
        if (next !== data) queryClient.setQueryData(key, next);
      }
      queryClient.setQueriesData<ConversationDetail>(
        { queryKey: [INBOX_KEY, "room"], predicate: (q) => q.queryKey.at(-1) === event.roomId },
        (old) => withMessage(old, event.message),
      );
      invalidateLists(queryClient);
      // The phone simulator's handset: a fetch in flight is let finish (not cancelled).
      void queryClient.invalidateQueries({ queryKey: [INBOX_KEY, "handset"] }, { cancelRefetch: false });
      break;
    case "room":
    case "reaction":
    case "read":
      invalidateLists(queryClient);
      void queryClient.invalidateQueries({
        queryKey: [INBOX_KEY, "room"],
        ...(event.roomId ? { predicate: (q) => q.queryKey.at(-1) === event.roomId } : {}),
      });
      break;
    case "handset":
      void queryClient.invalidateQueries({ queryKey: [INBOX_KEY, "handset"] }, { cancelRefetch: false });
      break;
    case "contacts":
      void queryClient.invalidateQueries({ queryKey: ["contacts"] });
      invalidateLists(queryClient);
      break;
    case "tasks":
      // Task lists and counts (Tasks page, features/tasks/api.ts): a fetch in flight is let finish.
      void queryClient.invalidateQueries({ queryKey: ["tasks"] }, { cancelRefetch: false });
      break;
    case "call":
      // Live call state (features/voice/live-calls-api.ts): the calls in progress and their captions.
      applyCallEvent(queryClient, event);
      break;
    case "sip":
      // The SIP registration's state (Developers page, features/developers/sip-api.ts).
      // A fetch in flight is let finish (not cancelled): the next one follows it.
      void queryClient.invalidateQueries({ queryKey: ["sip", "registration"] }, { cancelRefetch: false });
      break;
    default:
      break;
  }
}

/** Keeps the inbox live while mounted: the WebSocket, reconnects and catch-up. */
export function useInboxRealtime(): RealtimeStatus {
  const queryClient = useQueryClient();
  const [accountId, viewingAs] = useAccountKey();
  const [status, setStatus] = useState<RealtimeStatus>("connecting");
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new viewing-as value needs a new connection.
  useEffect(() => {
    const connection = connectRealtime({
      token: readToken,
      targetAccountId: () => getTargetAccountId() ?? accountId,
      onEvent: (event) => applyRealtimeEvent(queryClient, event),
      onStatus: setStatus,
      onResync: () => {
        invalidateLists(queryClient);
        void queryClient.invalidateQueries({ queryKey: [INBOX_KEY, "room"] }, { cancelRefetch: false });
      },
    });
    return () => connection.close();
  }, [queryClient, accountId, viewingAs]);
  return status;
}

function useInboxMutation<TInput, TOutput>(
  run: (input: TInput) => Promise<TOutput>,
  roomOf?: (input: TInput) => string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (_data, input) => {
      invalidateLists(queryClient);
      const roomId = roomOf?.(input);
      void queryClient.invalidateQueries({
        queryKey: [INBOX_KEY, "room"],
        ...(roomId ? { predicate: (q) => q.queryKey.at(-1) === roomId } : {}),
      });
    },
  });
}

export function useSendMessage(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { text: string; media: string[] }) =>
      apiClient.call(sendConversationMessage, { params: { roomId }, body }),
    onSuccess: (answer) => {
      queryClient.setQueriesData<ConversationDetail>(
        { queryKey: [INBOX_KEY, "room"], predicate: (q) => q.queryKey.at(-1) === roomId },
        (old) => withMessage(old, answer.message),
      );
      invalidateLists(queryClient);
    },
  });
}

export const useSetAiAgent = () =>
  useInboxMutation(
    (input: { roomId: string; enabled: boolean }) =>
      apiClient.call(setAiAgentEnabled, {
        params: { roomId: input.roomId },
        body: { aiAgentEnabled: input.enabled },
      }),
    (input) => input.roomId,
  );

export const useCloseConversation = () =>
  useInboxMutation(
    (input: { roomId: string; archive: boolean }) => apiClient.call(closeConversation, { body: input }),
    (input) => input.roomId,
  );

export const useUnarchive = () =>
  useInboxMutation(
    (roomId: string) => apiClient.call(unarchiveConversation, { body: { roomId } }),
    (roomId) => roomId,
  );

export const useMarkUnread = () =>
  useInboxMutation(
    (input: { roomId: string; folder: InboxFolder }) =>
      apiClient.call(input.folder === "agent" ? markAgentUnread : markUnread, {
        body: { roomId: input.roomId },
      }),
    (input) => input.roomId,
  );

export const useMarkRead = () =>
  useInboxMutation(
    (input: { roomId: string; folder: InboxFolder }) =>
      apiClient.call(input.folder === "agent" ? clearAgentActivity : clearActivity, {
        body: { roomId: input.roomId, clearAll: false },
      }),
    (input) => input.roomId,
  );

export const useClearAllActivity = () =>
  useInboxMutation((folder: InboxFolder) =>
    apiClient.call(folder === "agent" ? clearAgentActivity : clearActivity, { body: { clearAll: true } }),
  );

export const useRate = () =>
  useInboxMutation(
    (input: { roomId: string; rating: number | null }) => apiClient.call(rateConversation, { body: input }),
    (input) => input.roomId,
  );

export const useReaction = () =>
  useInboxMutation(
    (input: {
      roomId: string;
      messageId: number;
      reaction: typeof import("@switchboard/api").REACTIONS[number];
      add: boolean;
    }) =>
      apiClient.call(input.add ? addReaction : removeReaction, {
        body: { roomId: input.roomId, messageId: input.messageId, reaction: input.reaction },
      }),
    (input) => input.roomId,
  );

export const useBlock = () =>
  useInboxMutation(
    (input: { roomId: string; blocked: boolean }) =>
      apiClient.call(setBlock, { body: { targetUsername: input.roomId, blocked: input.blocked } }),
    (input) => input.roomId,
  );

export const useSetFolder = () =>
  useInboxMutation(
    (input: { roomId: string; folder: InboxFolder }) =>
      apiClient.call(setConversationFolder, {
        params: { roomId: input.roomId },
        body: { folder: input.folder },
      }),
    (input) => input.roomId,
  );

export async function uploadMedia(file: File): Promise<string> {
  const form = new FormData();
  form.append("file", file);
  return (await apiClient.call(uploadChatMedia, { form })).url;
}

/** The first message of a new conversation. */
export async function sendFirstMessage(roomId: string, text: string): Promise<void> {
  await apiClient.call(sendConversationMessage, { params: { roomId }, body: { text, media: [] } });
}

/** Starts (or finds) the conversation with an address: its profile, then the room with the agent. */
export async function startConversation(address: string): Promise<string> {
  const { profile } = await apiClient.call(createExternalDestinationProfile, { body: { address } });
  const { roomId } = await apiClient.call(getGroupConversationRoomId, {
    body: { users: [profile.username] },
  });
  return roomId;
}

// The sandbox carrier's phone simulator -------------------------------------------------------------

export function useHandset(number: string | null) {
  const { view, viewingAs } = useAccountState();
  const accountId = view.account.id;
  // The handset texts an organisation's agents: a partner or reseller in view has none of its own.
  const ownsAgents = view.account.accountType === "organization" || view.account.accountType === "agent";
  return useQuery({
    enabled: ownsAgents,
    queryKey: [INBOX_KEY, "handset", accountId, viewingAs, number],
    queryFn: ({ signal }) => apiClient.call(sandboxHandset, { query: number ? { number } : {}, signal }),
  });
}

export function useSimulateInbound() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { from: string; to: string; text: string }) =>
      apiClient.call(sandboxInboundSms, { body: { ...body, media: [] } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [INBOX_KEY, "handset"] }),
  });
}
