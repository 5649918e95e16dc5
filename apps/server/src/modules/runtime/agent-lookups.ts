import type { CampaignFields, Stage } from "@switchboard/api";
import { AGENT_MESSAGES, RUNTIME_MESSAGES } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { AccessResolver, AccountRow } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { ResolvedModel } from "../../providers/llm/language-model.ts";
import type { AgentsService } from "../agents/index.ts";
import type { ConversationRow, ConversationsRepository } from "../conversations/index.ts";
import type { ModelSettingsService } from "./model-settings.service.ts";

/** What the runtime's calls look up about an agent: its campaign, organisation, test conversations, model. */
export function createAgentLookups(deps: {
  agents: AgentsService;
  access: AccessResolver;
  conversations: ConversationsRepository;
  models: ModelSettingsService;
  log: FastifyBaseLogger;
}) {
  const { agents, conversations } = deps;

  async function campaignOf(agentRef: { id: number; orgId: number }, stage: Stage): Promise<CampaignFields> {
    const { staging, production } = await agents.campaignsOf(agentRef);
    if (stage === "production") {
      if (!production) throw badRequest(AGENT_MESSAGES.notPublished);
      return production;
    }
    return staging;
  }

  async function organizationOf(agent: AccountRow): Promise<AccountRow | null> {
    return agent.organizationId ? deps.access.loadAccount(agent.organizationId) : null;
  }

  /** A conversation of the agent's test chat, or 404. */
  async function findTestConversation(agentId: number, uuid: string): Promise<ConversationRow> {
    const conversation = await conversations.findConversation(uuid);
    if (!conversation || conversation.agentAccountId !== agentId)
      throw notFound(RUNTIME_MESSAGES.conversationNotFound);
    const room = await conversations.findRoom(conversation.roomId);
    if (room?.kind !== "test") throw notFound(RUNTIME_MESSAGES.conversationNotFound);
    return conversation;
  }

  async function modelOrNull(
    orgId: number | null,
  ): Promise<{ model: ResolvedModel | null; error: string | null }> {
    try {
      return { model: await deps.models.modelFor(orgId), error: null };
    } catch (error) {
      deps.log.error({ err: error, orgId }, "could not build the organisation's model");
      return { model: null, error: "The language model settings cannot be used. Check the model settings." };
    }
  }

  return { campaignOf, organizationOf, findTestConversation, modelOrNull };
}

export type AgentLookups = ReturnType<typeof createAgentLookups>;
