import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { AgentTestsService } from "./agent-tests.service.ts";

export function agentTestsRoutes(tests: AgentTestsService) {
  return [
    handle(api.listAgentTests, ({ params }, { access }) => tests.list(access, params.id)),
    handle(api.createAgentTest, ({ params, body }, { access }) => tests.create(access, params.id, body)),
    handle(api.updateAgentTest, ({ params, body }, { access }) =>
      tests.update(access, params.id, params.scenarioId, body),
    ),
    handle(api.deleteAgentTest, ({ params }, { access }) =>
      tests.remove(access, params.id, params.scenarioId),
    ),
    handle(api.runAgentTests, ({ params }, { access }) => tests.run(access, params.id)),
    handle(api.getAgentTestRun, ({ params }, { access }) => tests.getRun(access, params.id, params.runId)),
  ];
}
