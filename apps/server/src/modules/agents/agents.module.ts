import type { AppContext } from "../../app-context.ts";
import type { HierarchyModule } from "../hierarchy/index.ts";
import { createAgentsRepository } from "./agents.repository.ts";
import { agentsRoutes, appsRoutes, templatesRoutes } from "./agents.routes.ts";
import { createAgentsService } from "./agents.service.ts";
import { createAppsRepository } from "./apps.repository.ts";
import { createAppsService, installAppsWithoutSettings } from "./apps.service.ts";
import { createTemplatesRepository } from "./templates.repository.ts";
import { createTemplatesService } from "./templates.service.ts";

/** Agents (staging and production configuration, versions), the organisations' templates and apps. */
export function createAgentsModule(
  context: AppContext,
  deps: {
    hierarchy: HierarchyModule;
    knowledgeBasesOf?: (orgId: number, ids: number[]) => Promise<number[]>;
  },
) {
  const db = context.database.db;
  const templatesRepository = createTemplatesRepository(db);
  const appsRepository = createAppsRepository(db);
  const installApps = (orgId: number, apps: readonly { appId: string; version: string }[]) =>
    installAppsWithoutSettings(appsRepository, orgId, apps);
  const agents = createAgentsService({
    repo: createAgentsRepository(db),
    access: context.access,
    findTemplate: templatesRepository.find,
    installApps,
    ...(deps.knowledgeBasesOf ? { knowledgeBasesOf: deps.knowledgeBasesOf } : {}),
  });
  const apps = createAppsService({
    repo: appsRepository,
    agents,
    outbound: context.outbound,
    secretKey: context.secretKey,
  });
  const templates = createTemplatesService({
    repo: templatesRepository,
    agents,
    hierarchy: deps.hierarchy.hierarchy,
    installApps,
  });
  return {
    agents,
    templates,
    apps,
    routes: [...agentsRoutes(agents), ...templatesRoutes(templates), ...appsRoutes(apps)],
  };
}

export type AgentsModule = ReturnType<typeof createAgentsModule>;
