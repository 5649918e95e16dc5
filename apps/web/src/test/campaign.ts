import type { Campaign } from "@switchboard/api";

/** A staging campaign as the server answers it, with the given fields. */
export function fakeCampaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: 7,
    agentId: 7,
    stage: "staging",
    revision: 1,
    updatedAt: 0,
    agentInstructions: "Answer calls for Bluebird Dental.",
    published: true,
    confirmTransfers: false,
    apps: [],
    enabledFunctions: {},
    actions: [],
    templateId: null,
    timezone: null,
    language: null,
    voice: null,
    greeting: null,
    outboundGreeting: null,
    variables: {},
    knowledgeBaseIds: [],
    voicemailAction: "leave_message",
    voicemailMessage: null,
    analysis: { successRule: null, fields: [] },
    ...overrides,
  };
}
