import type { AppContext } from "../../app-context.ts";
import type { AgentsService } from "../agents/index.ts";
import { createConversationsRepository } from "../conversations/index.ts";
import type { RuntimeModule } from "../runtime/index.ts";
import type { VoiceModule } from "../voice/index.ts";
import { createAgentTestsRepository } from "./agent-tests.repository.ts";
import { agentTestsRoutes } from "./agent-tests.routes.ts";
import { createAgentTestsService } from "./agent-tests.service.ts";
import { agentTestRunJob } from "./jobs.ts";
import { carryOutRun } from "./test-runner.ts";

/**
 * Agent test suites: an owner's scenarios (a simulated caller's lines and the checks its call must meet),
 * run as real calls through the voice pipeline in the one job runner, judged on what the calls left, kept
 * per staging revision; a required scenario that has not passed holds publishing.
 */
export function createAgentTestsModule(
  context: AppContext,
  deps: { agents: AgentsService; runtime: RuntimeModule; voice: Pick<VoiceModule, "runScenarioCall"> },
) {
  const db = context.database.db;
  const repo = createAgentTestsRepository(db);
  const conversations = createConversationsRepository(db);
  const tests = createAgentTestsService({
    repo,
    agents: deps.agents,
    staging: async (agent) => (await deps.agents.campaignsOf(agent)).staging,
    usesSandbox: async (orgId) => (await deps.runtime.models.modelFor(orgId)).provider === "sandbox",
    queueRun: async (runId, agentId) => void (await context.jobs.send(agentTestRunJob, { runId, agentId })),
  });
  deps.agents.usePublishCheck(tests.checkPublish);
  context.jobs.register(agentTestRunJob, ({ runId }, attempt) =>
    carryOutRun(
      {
        repo,
        call: deps.voice.runScenarioCall,
        messagesOf: (uuid) => conversations.conversationMessages(uuid),
        log: context.log,
      },
      runId,
      attempt.signal,
    ),
  );
  return { tests, routes: agentTestsRoutes(tests) };
}
