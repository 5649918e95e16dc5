import type { WebhookEventData } from "@switchboard/api";
import type { MessageRow, RoomRow } from "./inbox.repository.ts";

/** The `data` of a message.received or message.sent webhook event for a text message of a room. */
export function messageEventData(
  room: RoomRow,
  message: MessageRow,
  agentNumber: string | null,
): WebhookEventData<"message.received"> {
  const inbound = message.role === "user";
  return {
    conversationId: room.id,
    messageId: message.id,
    agentId: room.agentAccountId,
    channel: room.channel === "sms" || room.channel === "voice" ? room.channel : "web",
    from: inbound ? (message.senderAddress ?? room.externalAddress) : agentNumber,
    to: inbound ? agentNumber : room.externalAddress,
    text: message.text,
    media: Array.isArray(message.media)
      ? message.media.filter((m): m is string => typeof m === "string")
      : [],
    sender: inbound ? "contact" : message.role === "operator" ? "operator" : "agent",
    deliveryStatus: message.deliveryStatus,
    createdAt: message.createdAt.getTime(),
  };
}
