import type { getStagingEventRules } from "@switchboard/api";
import {
  type AgentRules,
  type CampaignFields,
  type createAgentFromTemplate,
  type createTemplate,
  type Migration,
  type Stage,
  TEMPLATE_MESSAGES,
  TEMPLATE_STALE_MESSAGE,
  type Template,
  type TemplateField,
  type updateTemplate,
} from "@switchboard/api";
import { fillVariables } from "@switchboard/core";
import type { z } from "zod";
import { type Access, type AccountRow, actsAbove, isWithin } from "../../access/access.ts";
import { conflict, forbidden, notFound } from "../../api-error.ts";
import type { QueryOf } from "../../http/routes.ts";
import type { HierarchyService } from "../hierarchy/index.ts";
import {
  type AgentsService,
  campaignFields,
  checkEnabledFunctions,
  DEFAULT_CAMPAIGN,
  uniqueApps,
} from "./agents.service.ts";
import { isTemplateVisible, visibleTemplateOwners } from "./template-visibility.ts";
import type { TemplateRow, TemplatesRepository } from "./templates.repository.ts";

type TemplateContent = Omit<
  Template,
  "id" | "name" | "ownerAccountId" | "builtIn" | "editable" | "revision" | "createdAt" | "updatedAt"
>;

const DEFAULT_CONTENT: TemplateContent = {
  description: null,
  agentInstructions: "",
  templateFields: [],
  templateIntegrations: [],
  actions: [],
  apps: [],
  enabledFunctions: {},
  confirmTransfers: false,
  greeting: null,
};
const CONTENT_KEYS = Object.keys(DEFAULT_CONTENT) as (keyof TemplateContent)[];

/** The parts of an agent's campaign that its template decides, and that a migration brings up to date. */
export const TEMPLATE_DRIVEN_FIELDS = [
  "agentInstructions",
  "actions",
  "apps",
  "enabledFunctions",
  "confirmTransfers",
  "greeting",
] as const satisfies readonly (keyof CampaignFields & keyof TemplateContent)[];

export function templateContent(body: Record<string, unknown> | null | undefined): TemplateContent {
  const content: Record<string, unknown> = { ...DEFAULT_CONTENT };
  for (const key of CONTENT_KEYS) {
    const value = body?.[key];
    if (value !== undefined) content[key] = value;
  }
  return content as TemplateContent;
}

/** Template field values as variables: the given values by key, else each field's own value. */
export function variablesFrom(
  fields: readonly TemplateField[],
  given: Record<string, unknown> | { key: string; value?: unknown }[] | undefined,
): Record<string, string> {
  const byKey: Record<string, unknown> = Array.isArray(given)
    ? Object.fromEntries(given.map((field) => [field.key, field.value]))
    : (given ?? {});
  const variables: Record<string, string> = {};
  for (const field of fields) {
    const value = byKey[field.key] ?? field.value;
    if (value !== undefined && value !== null && value !== "") variables[field.key] = String(value);
  }
  for (const [key, value] of Object.entries(byKey)) {
    if (!(key in variables) && value !== undefined && value !== null && value !== "")
      variables[key] = String(value);
  }
  return variables;
}

/** Product spec §3: an action named schedule implies a calendar integration. */
export function withImpliedIntegrations<T extends Record<string, unknown>>(body: T): T {
  const actions = Array.isArray(body.actions) ? (body.actions as { name?: unknown }[]) : [];
  const integrations = Array.isArray(body.templateIntegrations)
    ? (body.templateIntegrations as string[])
    : [];
  if (actions.some((action) => action.name === "schedule") && !integrations.includes("calendar"))
    return { ...body, templateIntegrations: [...integrations, "calendar"] };
  return body;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type Body<T extends { body?: z.ZodType }> = z.output<NonNullable<T["body"]>>;

type Deps = {
  repo: TemplatesRepository;
  agents: AgentsService;
  hierarchy: HierarchyService;
  /** Installs the template's apps that need no settings for the new agent's organisation. */
  installApps?: (orgId: number, apps: CampaignFields["apps"]) => Promise<void>;
};

export function createTemplatesService(deps: Deps) {
  const { repo, agents } = deps;

  /** The account that owns what the target creates: an agent account's organisation, else the target. */
  const homeOf = (target: AccountRow) =>
    target.accountType === "agent" && target.organizationId ? target.organizationId : target.id;

  const visibleOwners = visibleTemplateOwners;

  const isEditable = (access: Access, row: TemplateRow) =>
    row.ownerAccountId === null
      ? access.caller.user.superAdmin
      : row.ownerAccountId === homeOf(access.target);

  function toTemplate(access: Access, row: TemplateRow): Template {
    return {
      id: row.id,
      name: row.name,
      ownerAccountId: row.ownerAccountId,
      builtIn: row.ownerAccountId === null,
      editable: isEditable(access, row),
      ...templateContent(row.body),
      description: row.description,
      revision: row.revision,
      createdAt: row.createdAt.getTime(),
      updatedAt: row.updatedAt.getTime(),
    };
  }

  /** A template the target may use; unknown and invisible ones answer the same 404. */
  async function findVisible(access: Access, id: number): Promise<TemplateRow> {
    const row = await repo.find(id);
    if (!row) throw notFound(TEMPLATE_MESSAGES.notFound);
    if (!isTemplateVisible(access.target, row)) throw notFound(TEMPLATE_MESSAGES.notFound);
    return row;
  }

  async function findEditable(access: Access, id: number): Promise<TemplateRow> {
    const row = await findVisible(access, id);
    if (!isEditable(access, row)) throw forbidden(TEMPLATE_MESSAGES.readOnly);
    return row;
  }

  function contentPatch(body: Partial<TemplateContent>): Partial<TemplateContent> {
    const patch: Record<string, unknown> = {};
    for (const key of CONTENT_KEYS) if (body[key] !== undefined) patch[key] = body[key];
    if (patch.apps) patch.apps = uniqueApps(patch.apps as TemplateContent["apps"]);
    if (patch.enabledFunctions)
      patch.enabledFunctions = checkEnabledFunctions(patch.enabledFunctions as Record<string, string[]>);
    return patch as Partial<TemplateContent>;
  }

  async function list(access: Access) {
    const rows = await repo.listVisible(visibleOwners(access.target));
    return { success: true as const, templates: rows.map((row) => toTemplate(access, row)) };
  }

  async function get(access: Access, id: number) {
    return { success: true as const, template: toTemplate(access, await findVisible(access, id)) };
  }

  async function create(access: Access, body: Body<typeof createTemplate>) {
    let fromAgent: Partial<TemplateContent> = {};
    if (body.agentId !== undefined) {
      const { ref } = await agents.resolveAgent(access, body.agentId, "canEditOrg");
      const { staging } = await agents.campaignsOf(ref);
      fromAgent = Object.fromEntries(TEMPLATE_DRIVEN_FIELDS.map((key) => [key, staging[key]]));
    }
    const builtIn = body.builtIn && access.caller.user.superAdmin;
    if (body.builtIn && !builtIn) throw forbidden(TEMPLATE_MESSAGES.readOnly);
    const content = { ...DEFAULT_CONTENT, ...fromAgent, ...contentPatch(body) };
    const { description, ...rest } = content;
    const row = await repo.insert({
      ownerAccountId: builtIn ? null : homeOf(access.target),
      name: body.name,
      description,
      body: withImpliedIntegrations(rest),
    });
    return { success: true as const, template: toTemplate(access, row) };
  }

  async function update(access: Access, id: number, body: Body<typeof updateTemplate>) {
    const existing = await findEditable(access, id);
    const { description, ...patch } = contentPatch(body);
    const row = await repo.update(
      id,
      {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(description !== undefined ? { description } : {}),
        body: withImpliedIntegrations({ ...existing.body, ...patch }),
      },
      body.revision,
    );
    if (!row) {
      const current = await repo.find(id);
      if (!current) throw notFound(TEMPLATE_MESSAGES.notFound);
      throw conflict(TEMPLATE_STALE_MESSAGE, { current: toTemplate(access, current) });
    }
    return { success: true as const, template: toTemplate(access, row) };
  }

  async function remove(access: Access, id: number) {
    await findEditable(access, id);
    await repo.softDelete(id);
    return { success: true as const, message: TEMPLATE_MESSAGES.deleted };
  }

  async function createAgent(access: Access, body: Body<typeof createAgentFromTemplate>) {
    const template = await findVisible(access, body.templateId);
    const content = templateContent(template.body);
    const created = await deps.hierarchy.createAgent(access, { name: body.name });
    const ref = { id: created.account.id, orgId: created.account.organizationId ?? access.target.id };
    const fields: CampaignFields = {
      ...DEFAULT_CAMPAIGN,
      ...Object.fromEntries(TEMPLATE_DRIVEN_FIELDS.map((key) => [key, content[key]])),
      templateId: template.id,
      variables: variablesFrom(content.templateFields, body.templateFields),
      timezone: body.timezone ?? null,
      voice: body.voice ?? null,
      language: body.language ?? null,
    };
    // A template with instructions gives a working agent at once: published as it was made.
    const live = fields.agentInstructions.trim() !== "";
    const campaign = await agents.overwrite(ref, "staging", { ...fields, published: live });
    await deps.installApps?.(ref.orgId, fields.apps);
    if (live) await agents.overwrite(ref, "production", fields);
    return { success: true as const, account: created.account, campaign };
  }

  async function migrate(access: Access, id: number, dryRun: boolean) {
    const template = await findVisible(access, id);
    const content = templateContent(template.body);
    const linked = await repo.linkedConfigs(id, access.target);
    const byAgent = new Map<number, Migration["agents"][number]>();
    for (const { config, account } of linked) {
      // Only agents in the target's subtree: a migration never reaches another tenant's agents.
      if (!isWithin(access.target, account) || account.accountType !== "agent") continue;
      const current = campaignFields(config.config);
      const next: CampaignFields = { ...current };
      const changed: string[] = [];
      for (const key of TEMPLATE_DRIVEN_FIELDS) {
        if (!sameJson(current[key], content[key])) {
          changed.push(key);
          (next as Record<string, unknown>)[key] = content[key];
        }
      }
      const entry = byAgent.get(account.id) ?? { agentId: account.id, stages: [], changedFields: [] };
      if (changed.length > 0) {
        entry.stages.push(config.stage);
        for (const key of changed) if (!entry.changedFields.includes(key)) entry.changedFields.push(key);
        if (!dryRun) await agents.overwrite({ id: account.id, orgId: config.orgId }, config.stage, next);
      }
      byAgent.set(account.id, entry);
    }
    const list = [...byAgent.values()];
    const migrated = list.filter((entry) => entry.stages.length > 0).length;
    const message = dryRun
      ? `${migrated} of ${list.length} agent${list.length === 1 ? "" : "s"} would change.`
      : `${migrated} of ${list.length} agent${list.length === 1 ? "" : "s"} migrated.`;
    return {
      success: true as const,
      migration: { templateId: id, dryRun, agents: list, migrated },
      message,
    };
  }

  /**
   * The rules the runtime loads. Template variables are replaced unless replaceTemplateVars is false, and
   * for a super admin or a reseller (or partner) acting above the agent only when forced (product spec §6).
   */
  async function eventRules(
    access: Access,
    which: "staging" | "default",
    query: QueryOf<typeof getStagingEventRules>,
  ): Promise<{ success: true; rules: AgentRules }> {
    const { account, ref } = await agents.resolveAgent(access, query.agentId, "canViewOrg");
    const { staging, production } = await agents.campaignsOf(ref);
    const campaign = which === "default" && production ? production : staging;
    const stage: Stage = campaign.stage;
    const above = actsAbove(access, account);
    const replace =
      query.replaceTemplateVars !== false && (!above || query.forceReplaceTemplateVars === true);
    const fields = campaignFields(campaign);
    return {
      success: true,
      rules: {
        ...fields,
        agentInstructions: replace
          ? fillVariables(fields.agentInstructions, fields.variables)
          : fields.agentInstructions,
        greeting:
          replace && fields.greeting
            ? fillVariables(fields.greeting, fields.variables) || null
            : fields.greeting,
        agentId: ref.id,
        stage,
        templateVariablesReplaced: replace,
      },
    };
  }

  return { list, get, create, update, remove, createAgent, migrate, eventRules };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
