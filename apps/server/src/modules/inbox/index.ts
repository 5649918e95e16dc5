/** The inbox module's public entry point: other modules use it only through what this file exports. */
export type { InboxService } from "./inbox.service.ts";
export type { AgentReplyEvent, InboundEvent } from "./inbox-agent-text.ts";
