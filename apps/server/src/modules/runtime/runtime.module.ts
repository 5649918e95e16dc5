import type { AppContext } from "../../app-context.ts";
import {
  type AgentsService,
  createAppsRepository,
  readAppSecret,
  type TemplatesService,
} from "../agents/index.ts";
import type { AgentCalendar, ScheduleRepository } from "../calendars/index.ts";
import { createConversationsRepository } from "../conversations/index.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import { createAgentDrafts } from "./agent-drafts.ts";
import { createAgentLookups } from "./agent-lookups.ts";
import { createAgentTurns } from "./agent-turn.ts";
import { createCallAnalysis } from "./call-analysis.ts";
import { analyzeConversationJob } from "./jobs.ts";
import { createModelSettingsRepository } from "./model-settings.repository.ts";
import { createModelSettingsService } from "./model-settings.service.ts";
import { createQuietTexts } from "./quiet-texts.ts";
import { runtimeRoutes } from "./runtime.routes.ts";
import { createRuntimeService } from "./runtime.service.ts";
import { createTestChatService } from "./test-chat.service.ts";
import type { KnowledgeSearch } from "./tool-executors.ts";

/** Wires the agent runtime: repositories, the organisation's model, turns with storage, the calls. */
export function createRuntimeModule(
  context: AppContext,
  deps: {
    agents: AgentsService;
    templates: TemplatesService;
    /** The agents' calendar (own schedule plus connected calendars) and the schedule listing. */
    calendar: AgentCalendar;
    schedule: ScheduleRepository;
    webhooks?: WebhookEvents;
    /** The knowledge-base search behind the agents' knowledge tool. */
    knowledge?: KnowledgeSearch;
    now?: () => number;
  },
) {
  const db = context.database.db;
  const conversations = createConversationsRepository(db);
  const { schedule, calendar } = deps;
  const apps = createAppsRepository(db);
  const models = createModelSettingsService({
    repo: createModelSettingsRepository(db),
    llm: context.config.llm,
    secretKey: context.secretKey,
    production: context.config.env === "production",
    outbound: context.outbound,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const webhookSettings = async (orgId: number) => {
    const installed = await apps.find(orgId, "webhook", "1.0.0");
    if (!installed) return null;
    const { url, secret } = installed.data as { url?: unknown; secret?: unknown };
    return typeof url === "string" && url ? { url, secret: readAppSecret(context.secretKey, secret) } : null;
  };
  const shared = {
    conversations,
    schedule,
    calendar,
    sms: context.sms,
    webhookSettings,
    outbound: context.outbound,
    log: context.log,
    maxSteps: context.config.llm.maxSteps,
    toolTimeoutMs: context.config.toolTimeoutMs,
    ...(deps.knowledge ? { knowledge: deps.knowledge } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  };
  const turns = createAgentTurns({
    ...shared,
    ...(deps.webhooks ? { webhooks: deps.webhooks } : {}),
  });
  const lookups = createAgentLookups({
    agents: deps.agents,
    access: context.access,
    conversations,
    models,
    log: context.log,
  });
  const runtime = createRuntimeService({
    ...shared,
    lookups,
    agents: deps.agents,
    access: context.access,
  });
  // Every call or chat that ends is analysed in the background (its summary, verdict and fields).
  const analysis = createCallAnalysis({
    conversations,
    lookups,
    access: context.access,
    jobs: context.jobs,
    log: context.log,
    textQuietMs: context.config.textAnalysisQuietMs,
    ...(deps.webhooks ? { webhooks: deps.webhooks } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  context.jobs.register(analyzeConversationJob, async ({ uuid }) => {
    await analysis.analyze(uuid);
  });
  const quietTexts = createQuietTexts({
    db,
    jobs: context.jobs,
    quietMs: context.config.textAnalysisQuietMs,
    log: context.log,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const testChat = createTestChatService({
    agents: deps.agents,
    conversations,
    turns,
    lookups,
    ended: analysis.conversationEnded,
  });
  const drafts = createAgentDrafts({
    agents: deps.agents,
    templates: deps.templates,
    models,
    conversations,
    loadAccount: context.access.loadAccount,
    log: context.log,
  });
  return {
    runtime,
    drafts,
    models,
    turns,
    analysis,
    quietTexts,
    routes: runtimeRoutes({ runtime, testChat, drafts, models }),
  };
}

export type RuntimeModule = ReturnType<typeof createRuntimeModule>;
