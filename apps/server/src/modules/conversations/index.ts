/**
 * Conversations: rooms (a person's thread, a test chat), their participants, the conversations (a call, a
 * text session) in them, their messages, log rows and metered usage. Other modules use them only through
 * this entry point; what people said is stored redacted here (see conversations.repository.ts).
 */
export {
  type ConversationRow,
  type ConversationsRepository,
  createConversationsRepository,
  type LogRowValues,
  type MessageRow,
  type NewMessage,
  type NewParticipant,
  type PersonContact,
  type RoomRow,
  type UsageValues,
} from "./conversations.repository.ts";
