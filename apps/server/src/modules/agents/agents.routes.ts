import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { AgentsService } from "./agents.service.ts";

export function agentsRoutes(agents: AgentsService) {
  return [
    handle(api.getCampaigns, ({ query }, { access }) => agents.getCampaigns(access, query.agentId)),
    handle(api.saveCampaign, ({ body }, { access }) => agents.saveCampaign(access, body)),
    handle(api.publishAgent, ({ body }, { access }) => agents.publish(access, body.agentId)),
    handle(api.revertAgent, ({ body }, { access }) => agents.revert(access, body.agentId)),
    handle(api.detachAgentFromTemplate, ({ body }, { access }) => agents.detach(access, body.agentId)),
    handle(api.listAgentVersions, ({ params, query }, { access }) =>
      agents.listVersions(access, params.id, query.includeData),
    ),
    handle(api.createAgentVersion, ({ params, body }, { access }) =>
      agents.createVersion(access, params.id, body),
    ),
    handle(api.replaceAgentVersion, ({ params, body }, { access }) =>
      agents.replaceVersion(access, params.id, params.versionId, body),
    ),
    handle(api.restoreAgentVersion, ({ params, body }, { access }) =>
      agents.restoreVersion(access, params.id, params.versionId, body.target),
    ),
    handle(api.renameAgentVersion, ({ params, body }, { access }) =>
      agents.renameVersion(access, params.id, params.versionId, body.title),
    ),
  ];
}
