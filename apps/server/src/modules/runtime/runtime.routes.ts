import * as api from "@switchboard/api";
import { eventStream, handle } from "../../http/routes.ts";
import type { AgentDrafts } from "./agent-drafts.ts";
import type { ModelSettingsService } from "./model-settings.service.ts";
import type { RuntimeService } from "./runtime.service.ts";
import type { TestChatService } from "./test-chat.service.ts";

export function runtimeRoutes(services: {
  runtime: RuntimeService;
  testChat: TestChatService;
  drafts: AgentDrafts;
  models: ModelSettingsService;
}) {
  const { runtime, testChat, drafts, models } = services;
  return [
    handle(api.runPrompt, ({ body }, { access }) => runtime.runPrompt(access, body)),
    handle(api.testChat, async ({ body }, { access, signal }) =>
      eventStream(await testChat.testChat(access, body, signal)),
    ),
    handle(api.restartTestChat, ({ body }, { access }) => testChat.restart(access, body)),
    handle(api.getConversationTranscript, ({ params }, { access }) =>
      runtime.transcript(access, params.roomId, params.uuid),
    ),
    handle(api.generateAgentDraft, ({ body }, { access }) => drafts.generate(access, body)),
    handle(api.promptSuggestions, ({ body }, { access }) => drafts.suggestions(access, body)),
    handle(api.getModelSettings, (_input, { access }) => models.get(access)),
    handle(api.saveModelSettings, ({ body }, { access }) => models.save(access, body)),
    handle(api.getSchedule, ({ query }, { access }) => runtime.schedule(access, query)),
  ];
}
