import { randomBytes } from "node:crypto";
import type { AgentFunction, App, appSecret, listAgentFunctions, updateApp } from "@switchboard/api";
import { APP_MESSAGES } from "@switchboard/api";
import type { Access, AccountRow } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import { type Outbound, OutboundError } from "../../http/outbound.ts";
import type { BodyOf, QueryOf } from "../../http/routes.ts";
import { decryptSecret, encryptSecret, maskSecret } from "../../providers/llm/key-encryption.ts";
import type { AgentsService } from "./agents.service.ts";
import type { AppsRepository, InstalledAppRow } from "./apps.repository.ts";
import { type AppDefinition, BUILT_IN_APPS, findBuiltInApp } from "./built-in-apps.ts";

type Deps = {
  repo: AppsRepository;
  agents: AgentsService;
  /** Addresses in app data are checked when saved, so a refused one is known at once. */
  outbound: Pick<Outbound, "check">;
  /** Key of the app secrets at rest. */
  secretKey: string;
};

const ENCRYPTED = "v1:";

/** An app secret as stored: encrypted (`v1:`), or plain from before secrets were encrypted. */
export function readAppSecret(secretKey: string, stored: unknown): string {
  if (typeof stored !== "string" || stored === "") return "";
  return stored.startsWith(ENCRYPTED) ? decryptSecret(secretKey, stored) : stored;
}

/** Apps are installed per organisation: an agent account uses its organisation's. */
const homeOf = (target: AccountRow) =>
  target.accountType === "agent" && target.organizationId ? target.organizationId : target.id;

/**
 * Installs for an organisation the apps an agent's campaign uses that it has not installed yet, when they need
 * no settings (a template's calendar booking, call transfer, ...): the agent's functions are then the
 * organisation's installed apps', as its Actions panel shows them. Apps that need settings (the webhook's
 * address) wait for the owner's install window.
 */
export async function installAppsWithoutSettings(
  repo: AppsRepository,
  orgId: number,
  apps: readonly { appId: string; version: string }[],
): Promise<void> {
  for (const { appId, version } of apps) {
    const definition = findBuiltInApp(appId, version);
    if (!definition || Object.keys(definition.authParameters).length > 0) continue;
    await repo.install({ accountId: orgId, orgId, appId, appVersion: version, data: {} });
  }
}

export function createAppsService(deps: Deps) {
  const { repo } = deps;

  const secretNames = (definition: AppDefinition) =>
    Object.entries(definition.authParameters)
      .filter(([, parameter]) => parameter.secret)
      .map(([name]) => name);

  /** The data as the browser may see it: secrets masked. */
  function shownData(definition: AppDefinition, data: Record<string, unknown>): Record<string, unknown> {
    const shown = { ...data };
    for (const name of secretNames(definition)) {
      const plain = readAppSecret(deps.secretKey, data[name]);
      shown[name] = plain ? maskSecret(plain) : "";
    }
    return shown;
  }

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
      data: installed ? shownData(definition, installed.data) : null,
      installedAt: installed ? installed.installedAt.getTime() : null,
    };
  }

  function definitionOf(appId: string, appVersion: string): AppDefinition {
    const definition = findBuiltInApp(appId, appVersion);
    if (!definition) throw notFound(APP_MESSAGES.notFound);
    return definition;
  }

  /**
   * The app's data as stored: every auth parameter present (default ""), values checked, addresses
   * allowed by the outbound guard, secrets encrypted. A secret sent back as its mask keeps the stored one.
   */
  async function checkedData(
    definition: AppDefinition,
    data: Record<string, unknown>,
    stored: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const result: Record<string, unknown> = {};
    for (const [name, parameter] of Object.entries(definition.authParameters))
      result[name] = parameter.default;
    Object.assign(result, data);
    for (const [name, parameter] of Object.entries(definition.authParameters)) {
      const value = result[name];
      if (typeof value !== "string") throw badRequest(`${name}: must be text`);
      if (parameter.format === "uri" && value !== "") {
        try {
          await deps.outbound.check(value);
        } catch (error) {
          if (error instanceof OutboundError) throw badRequest(`${name}: ${error.message}`);
          throw error;
        }
      }
      if (parameter.secret && value !== "") {
        const current = readAppSecret(deps.secretKey, stored[name]);
        result[name] =
          current && (value === maskSecret(current) || value === stored[name])
            ? stored[name]
            : encryptSecret(deps.secretKey, value);
      }
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
      data: await checkedData(definition, data),
    });
    return get(access, appId, appVersion);
  }

  async function update(access: Access, appId: string, appVersion: string, body: BodyOf<typeof updateApp>) {
    const definition = definitionOf(appId, appVersion);
    const home = homeOf(access.target);
    const current = await repo.find(home, appId, appVersion);
    if (!current) throw notFound(APP_MESSAGES.notInstalled);
    const data = body.reload ? (body.data ?? current.data) : { ...current.data, ...body.data };
    const row = await repo.setData(
      home,
      appId,
      appVersion,
      await checkedData(definition, data, current.data),
    );
    return { success: true as const, app: toApp(definition, row) };
  }

  /** Reveals a secret on purpose, or replaces it with a new random one (answered once, in clear). */
  async function secret(access: Access, appId: string, appVersion: string, body: BodyOf<typeof appSecret>) {
    const definition = definitionOf(appId, appVersion);
    if (!secretNames(definition).includes(body.name)) throw badRequest(APP_MESSAGES.notSecret);
    const home = homeOf(access.target);
    const current = await repo.find(home, appId, appVersion);
    if (!current) throw notFound(APP_MESSAGES.notInstalled);
    if (body.action === "reveal")
      return {
        success: true as const,
        name: body.name,
        value: readAppSecret(deps.secretKey, current.data[body.name]),
      };
    const value = `whsec_${randomBytes(24).toString("base64url")}`;
    await repo.setData(home, appId, appVersion, {
      ...current.data,
      [body.name]: encryptSecret(deps.secretKey, value),
    });
    return { success: true as const, name: body.name, value };
  }

  async function uninstall(access: Access, appId: string, appVersion: string) {
    definitionOf(appId, appVersion);
    if (!(await repo.remove(homeOf(access.target), appId, appVersion)))
      throw notFound(APP_MESSAGES.notInstalled);
    return { success: true as const, message: APP_MESSAGES.uninstalled };
  }

  async function functions(access: Access, query: QueryOf<typeof listAgentFunctions>) {
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

  return { list, get, install, update, uninstall, secret, functions };
}

export type AppsService = ReturnType<typeof createAppsService>;
