import type { AgentFunction, App } from "@switchboard/api";
import { badRequest, notFound } from "../../http/api-error.ts";
import type { Access, AccountRow } from "../auth/access.ts";
import type { AgentsService } from "./agents.service.ts";
import type { AppsRepository, InstalledAppRow } from "./apps.repository.ts";
import { type AppDefinition, BUILT_IN_APPS, findBuiltInApp } from "./built-in-apps.ts";

export const APP_MESSAGES = {
  notFound: "App not found",
  notInstalled: "This app is not installed.",
  uninstalled: "App removed.",
} as const;

type Deps = { repo: AppsRepository; agents: AgentsService };

/** Apps are installed per organisation: an agent account uses its organisation's. */
const homeOf = (target: AccountRow) =>
  target.accountType === "agent" && target.organizationId ? target.organizationId : target.id;

export function createAppsService(deps: Deps) {
  const { repo } = deps;

  function toApp(definition: AppDefinition, installed: InstalledAppRow | null): App {
    return {
      appId: definition.appId,
      appVersion: definition.appVersion,
      name: definition.name,
      description: definition.description,
      builtIn: true,
      dependencies: {
        providers: { auth: { parameters: { type: "object", properties: definition.authParameters } } },
      },
      functions: definition.functions,
      installed: installed !== null,
      data: installed ? installed.data : null,
      installedAt: installed ? installed.installedAt.getTime() : null,
    };
  }

  function definitionOf(appId: string, appVersion: string): AppDefinition {
    const definition = findBuiltInApp(appId, appVersion);
    if (!definition) throw notFound(APP_MESSAGES.notFound);
    return definition;
  }

  /** The app's data with every auth parameter present (default ""), values checked. */
  function checkedData(definition: AppDefinition, data: Record<string, unknown>): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const [name, parameter] of Object.entries(definition.authParameters))
      result[name] = parameter.default;
    Object.assign(result, data);
    for (const name of Object.keys(definition.authParameters)) {
      if (typeof result[name] !== "string") throw badRequest(`${name}: must be text`);
    }
    const url = result.url;
    if (definition.appId === "webhook" && typeof url === "string" && url !== "") {
      if (!/^https?:\/\/[^\s/]+/i.test(url)) throw badRequest("url: Enter a valid web address.");
    }
    return result;
  }

  async function list(access: Access) {
    const installed = await repo.list(homeOf(access.target));
    const apps = BUILT_IN_APPS.map((definition) =>
      toApp(
        definition,
        installed.find((row) => row.appId === definition.appId && row.appVersion === definition.appVersion) ??
          null,
      ),
    );
    return { success: true as const, apps };
  }

  async function get(access: Access, appId: string, appVersion: string) {
    const definition = definitionOf(appId, appVersion);
    return {
      success: true as const,
      app: toApp(definition, await repo.find(homeOf(access.target), appId, appVersion)),
    };
  }

  async function install(
    access: Access,
    appId: string,
    appVersion: string,
    data: Record<string, unknown> = {},
  ) {
    const definition = definitionOf(appId, appVersion);
    const home = homeOf(access.target);
    await repo.install({
      accountId: home,
      orgId: access.target.organizationId,
      appId,
      appVersion,
      data: checkedData(definition, data),
    });
    return get(access, appId, appVersion);
  }

  async function update(
    access: Access,
    appId: string,
    appVersion: string,
    body: { data?: Record<string, unknown>; reload: boolean },
  ) {
    const definition = definitionOf(appId, appVersion);
    const home = homeOf(access.target);
    const current = await repo.find(home, appId, appVersion);
    if (!current) throw notFound(APP_MESSAGES.notInstalled);
    const data = body.reload ? (body.data ?? current.data) : { ...current.data, ...body.data };
    const row = await repo.setData(home, appId, appVersion, checkedData(definition, data));
    return { success: true as const, app: toApp(definition, row) };
  }

  async function uninstall(access: Access, appId: string, appVersion: string) {
    definitionOf(appId, appVersion);
    if (!(await repo.remove(homeOf(access.target), appId, appVersion)))
      throw notFound(APP_MESSAGES.notInstalled);
    return { success: true as const, message: APP_MESSAGES.uninstalled };
  }

  async function functions(access: Access, query: { agentId?: number; installedOnly: boolean }) {
    let enabled: Record<string, string[]> | null = null;
    if (query.agentId !== undefined || access.target.accountType === "agent") {
      const { ref } = await deps.agents.resolveAgent(access, query.agentId, "canViewOrg");
      enabled = (await deps.agents.campaignsOf(ref)).staging.enabledFunctions;
    }
    const installed = await repo.list(homeOf(access.target));
    const result: AgentFunction[] = [];
    for (const definition of BUILT_IN_APPS) {
      const isInstalled = installed.some(
        (row) => row.appId === definition.appId && row.appVersion === definition.appVersion,
      );
      if (query.installedOnly && !isInstalled) continue;
      const key = `${definition.appId}@${definition.appVersion}`;
      for (const fn of definition.functions) {
        result.push({
          ...fn,
          appId: definition.appId,
          version: definition.appVersion,
          key,
          enabled: enabled ? (enabled[key] ?? []).includes(fn.name) : null,
        });
      }
    }
    return { success: true as const, functions: result };
  }

  return { list, get, install, update, uninstall, functions };
}

export type AppsService = ReturnType<typeof createAppsService>;
