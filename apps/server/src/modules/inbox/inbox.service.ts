import { createInboxAgentText } from "./inbox-agent-text.ts";
import type { InboxDeps } from "./inbox-deps.ts";
import { createInboxInbound } from "./inbox-inbound.ts";
import { createInboxLists } from "./inbox-list.ts";
import { createInboxReadState } from "./inbox-read-state.ts";
import { createInboxRealtime } from "./inbox-realtime.ts";
import { createInboxRooms } from "./inbox-rooms.ts";
import { createInboxSending } from "./inbox-send.ts";
import { createInboxViews } from "./inbox-views.ts";

export type { InboundSms, InboxDeps, InboxTransaction, ListQuery } from "./inbox-deps.ts";

/**
 * The inbox: one service over parts with one job each — the shared views of rooms and messages
 * (inbox-views), lists and detail (inbox-list), sending (inbox-send), inbound texts and the AI agent's
 * replies (inbox-inbound), room changes, blocking and reactions (inbox-rooms), read state
 * (inbox-read-state) and the browsers' realtime connections (inbox-realtime).
 */
export function createInboxService(deps: InboxDeps) {
  const views = createInboxViews(deps);
  const sending = createInboxSending(deps, views);
  const { send } = sending;
  const agentText = createInboxAgentText(deps, views, sending);
  return {
    scopeOf: views.scopeOf,
    scopeOfAccount: views.scopeOfAccount,
    ...createInboxLists(deps, views),
    send,
    ...createInboxInbound(deps, views, sending, agentText),
    agentText: agentText.agentText,
    onInbound: agentText.onInbound,
    onAgentReply: agentText.onAgentReply,
    ...createInboxRooms(deps, views),
    ...createInboxReadState(deps, views),
    ...createInboxRealtime(deps, views),
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
