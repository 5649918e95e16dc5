import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { AgentsService } from "./agents.service.ts";
import type { AppsService } from "./apps.service.ts";
import type { TemplatesService } from "./templates.service.ts";

export function agentsRoutes(agents: AgentsService) {
  return [
    handle(api.getCampaigns, ({ query }, { access }) => agents.getCampaigns(access, query.agentId)),
    handle(api.saveCampaign, ({ body }, { access }) => agents.saveCampaign(access, body)),
    handle(api.publishAgent, ({ body }, { access }) =>
      agents.publish(access, body.agentId, body.revision, body.overrideTests),
    ),
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

export function templatesRoutes(templates: TemplatesService) {
  return [
    handle(api.listTemplates, (_input, { access }) => templates.list(access)),
    handle(api.createTemplate, ({ body }, { access }) => templates.create(access, body)),
    handle(api.getTemplate, ({ params }, { access }) => templates.get(access, params.id)),
    handle(api.updateTemplate, ({ params, body }, { access }) => templates.update(access, params.id, body)),
    handle(api.deleteTemplate, ({ params }, { access }) => templates.remove(access, params.id)),
    handle(api.createAgentFromTemplate, ({ body }, { access }) => templates.createAgent(access, body)),
    handle(api.migrateTemplate, ({ params, body }, { access }) =>
      templates.migrate(access, params.id, body.dryRun),
    ),
    handle(api.getStagingEventRules, ({ query }, { access }) =>
      templates.eventRules(access, "staging", query),
    ),
    handle(api.getDefaultEventRules, ({ query }, { access }) =>
      templates.eventRules(access, "default", query),
    ),
  ];
}

export function appsRoutes(apps: AppsService) {
  return [
    handle(api.listApps, (_input, { access }) => apps.list(access)),
    handle(api.getApp, ({ params }, { access }) => apps.get(access, params.appId, params.appVersion)),
    handle(api.installApp, ({ params, body }, { access }) =>
      apps.install(access, params.appId, params.appVersion, body.data),
    ),
    handle(api.updateApp, ({ params, body }, { access }) =>
      apps.update(access, params.appId, params.appVersion, body),
    ),
    handle(api.uninstallApp, ({ params }, { access }) =>
      apps.uninstall(access, params.appId, params.appVersion),
    ),
    handle(api.appSecret, ({ params, body }, { access }) =>
      apps.secret(access, params.appId, params.appVersion, body),
    ),
    handle(api.listAgentFunctions, ({ query }, { access }) => apps.functions(access, query)),
  ];
}
