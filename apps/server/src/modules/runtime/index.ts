/** The runtime module's public entry point: other modules use it only through what this file exports. */
export { type AgentLookups, createAgentLookups } from "./agent-lookups.ts";
export { type AgentTurns, displayName, type StoredTurn, type TurnSubject } from "./agent-turn.ts";
export { type ModelSettingsService, organizationOf } from "./model-settings.service.ts";
export type { RuntimeModule } from "./runtime.module.ts";
export { agentTimeZone, storedGreeting } from "./system-prompt.ts";
export type { CallControls, TransferRequest } from "./tool-executors.ts";
