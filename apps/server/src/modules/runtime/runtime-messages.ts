import { AGENT_MESSAGES } from "../agents/agents.service.ts";

export const RUNTIME_MESSAGES = {
  conversationNotFound: "Failed to fetch convo",
  conversationEnded: "This conversation has ended. Restart to begin a new one.",
  messageRequired: "message: Enter a message.",
  roomNotFound: "Room not found",
  chooseAgent: AGENT_MESSAGES.agentRequired,
} as const;
