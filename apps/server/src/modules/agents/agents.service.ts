import {
  AGENT_MESSAGES,
  type AgentVersion,
  type Campaign,
  type CampaignApp,
  type CampaignFields,
  type CampaignsAnswer,
  KB_MESSAGES,
  PROMPT_REQUIRED_MESSAGE,
  STALE_SAVE_MESSAGE,
  type Stage,
  type saveCampaign,
} from "@switchboard/api";
import type { PermissionFlag } from "@switchboard/core";
import type { z } from "zod";
import {
  type Access,
  type AccessResolver,
  type AccountRow,
  isWithin,
  MESSAGES,
} from "../../access/access.ts";
import { badRequest, conflict, forbidden, notFound } from "../../api-error.ts";
import type { AgentConfigRow, AgentRef, AgentsRepository, AgentVersionRow } from "./agents.repository.ts";
import { answeringCampaign } from "./answering-campaign.ts";
import { findBuiltInApp } from "./built-in-apps.ts";
import { isTemplateVisible } from "./template-visibility.ts";

const TEMPLATE_NOT_FOUND = "Template not found";

/** Throws (an ApiError) when the agent's staging copy may not be published yet. */
export type PublishCheck = (agent: AgentRef) => Promise<void>;

export const DEFAULT_CAMPAIGN: CampaignFields = {
  agentInstructions: "",
  published: true,
  confirmTransfers: false,
  apps: [],
  enabledFunctions: {},
  actions: [],
  templateId: null,
  timezone: null,
  language: null,
  voice: null,
  greeting: null,
  outboundGreeting: null,
  variables: {},
  knowledgeBaseIds: [],
  voicemailAction: "leave_message",
  voicemailMessage: null,
  analysis: { successRule: null, fields: [] },
};
const FIELD_KEYS = Object.keys(DEFAULT_CAMPAIGN) as (keyof CampaignFields)[];

/** The campaign fields of a stored configuration: known keys only, defaults for the missing ones. */
export function campaignFields(config: Record<string, unknown> | null | undefined): CampaignFields {
  const fields: Record<string, unknown> = { ...DEFAULT_CAMPAIGN };
  for (const key of FIELD_KEYS) {
    const value = config?.[key];
    if (value !== undefined) fields[key] = value;
  }
  return fields as CampaignFields;
}

/** Product spec §5: an app already present is not added twice. */
export function uniqueApps(apps: readonly CampaignApp[]): CampaignApp[] {
  const seen = new Set<string>();
  return apps.filter((app) => {
    const key = `${app.appId}@${app.version}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** enabledFunctions keys are `appId@version` of a catalogue app, and the names its functions. */
export function checkEnabledFunctions(enabled: Record<string, string[]>): Record<string, string[]> {
  const checked: Record<string, string[]> = {};
  for (const [key, names] of Object.entries(enabled)) {
    const at = key.lastIndexOf("@");
    const app = at > 0 ? findBuiltInApp(key.slice(0, at), key.slice(at + 1)) : undefined;
    if (!app) throw badRequest(`enabledFunctions: unknown app ${key}`);
    for (const name of names) {
      if (!app.functions.some((fn) => fn.name === name))
        throw badRequest(`enabledFunctions: ${key} has no function ${name}`);
    }
    checked[key] = [...new Set(names)];
  }
  return checked;
}

export type SaveCampaignBody = z.output<NonNullable<(typeof saveCampaign)["body"]>>;

type Deps = {
  repo: AgentsRepository;
  access: AccessResolver;
  /** A template by id (not deleted), to check that a campaign links only to one its account may use. */
  findTemplate: (id: number) => Promise<{ ownerAccountId: number | null } | null>;
  /** The knowledge bases of the organisation among `ids` (the knowledge-base module); unknown ids refuse. */
  knowledgeBasesOf?: (orgId: number, ids: number[]) => Promise<number[]>;
  /** Installs the apps a saved campaign uses that need no settings (the apps service). */
  installApps?: (orgId: number, apps: CampaignFields["apps"]) => Promise<void>;
};

export function createAgentsService(deps: Deps) {
  const { repo } = deps;

  /**
   * The agent a call acts on: the target when it is an agent account, else `agentId`, which must be an
   * agent account in the target's subtree (unknown and out of reach answer the same 404).
   */
  async function resolveAgent(
    access: Access,
    agentId: number | undefined,
    flag: PermissionFlag,
  ): Promise<{ account: AccountRow; ref: AgentRef }> {
    let account: AccountRow | null;
    if (agentId === undefined || agentId === access.target.id) {
      account = access.target;
      if (account.accountType !== "agent") {
        if (agentId === undefined) throw badRequest(AGENT_MESSAGES.agentRequired);
        throw notFound(AGENT_MESSAGES.agentNotFound);
      }
    } else {
      account = await deps.access.loadAccount(agentId);
      if (account?.accountType !== "agent" || !isWithin(access.target, account))
        throw notFound(AGENT_MESSAGES.agentNotFound);
      if (account.disabledAt && !access.caller.user.superAdmin) throw forbidden(MESSAGES.disabled);
      await deps.access.requirePermission(access, account, flag);
    }
    if (!account.organizationId) throw notFound(AGENT_MESSAGES.agentNotFound);
    return { account, ref: { id: account.id, orgId: account.organizationId } };
  }

  function toCampaign(agent: AgentRef, stage: Stage, row: AgentConfigRow | null): Campaign {
    return {
      ...campaignFields(row?.config),
      id: agent.id,
      agentId: agent.id,
      stage,
      revision: row?.revision ?? 0,
      updatedAt: row ? row.updatedAt.getTime() : null,
    };
  }

  async function campaignsOf(agent: AgentRef): Promise<CampaignsAnswer> {
    const staging = await repo.findConfig(agent, "staging");
    const production = await repo.findConfig(agent, "production");
    return {
      success: true,
      agentId: agent.id,
      staging: toCampaign(agent, "staging", staging),
      production: production ? toCampaign(agent, "production", production) : null,
    };
  }

  /** The campaign that answers the agent's live turns, and its stage (see answering-campaign.ts). */
  async function answeringCampaignOf(agent: AgentRef) {
    return answeringCampaign(await campaignsOf(agent));
  }

  /** Writes one copy unconditionally (publish, revert, restore, detach). */
  async function overwrite(agent: AgentRef, stage: Stage, fields: CampaignFields): Promise<Campaign> {
    const row = await repo.writeConfig(agent, stage, fields);
    return toCampaign(agent, stage, row);
  }

  async function getCampaigns(access: Access, agentId: number | undefined): Promise<CampaignsAnswer> {
    const { ref } = await resolveAgent(access, agentId, "canViewOrg");
    return campaignsOf(ref);
  }

  async function saveCampaign(access: Access, body: SaveCampaignBody) {
    const { account, ref } = await resolveAgent(access, body.agentId, "canEditOrg");
    if (!body.agentInstructions.trim()) throw badRequest(PROMPT_REQUIRED_MESSAGE);
    const currentRow = await repo.findConfig(ref, "staging");
    const current = campaignFields(currentRow?.config);
    const next: CampaignFields = {
      ...current,
      agentInstructions: body.agentInstructions,
      published: body.published,
      confirmTransfers: body.confirmTransfers,
    };
    if (body.apps !== undefined) next.apps = uniqueApps(body.apps);
    if (body.enabledFunctions !== undefined)
      next.enabledFunctions = checkEnabledFunctions(body.enabledFunctions);
    if (body.actions !== undefined) next.actions = body.actions;
    if (body.templateId !== undefined && body.templateId !== current.templateId) {
      if (body.templateId !== null) {
        const template = await deps.findTemplate(body.templateId);
        if (!template || !isTemplateVisible(account, template)) throw notFound(TEMPLATE_NOT_FOUND);
      }
      next.templateId = body.templateId;
    }
    if (body.timezone !== undefined) next.timezone = body.timezone;
    if (body.language !== undefined) next.language = body.language;
    if (body.voice !== undefined) next.voice = body.voice;
    if (body.greeting !== undefined) next.greeting = body.greeting;
    if (body.outboundGreeting !== undefined) next.outboundGreeting = body.outboundGreeting?.trim() || null;
    if (body.variables !== undefined) next.variables = body.variables;
    if (body.voicemailAction !== undefined) next.voicemailAction = body.voicemailAction;
    if (body.voicemailMessage !== undefined) next.voicemailMessage = body.voicemailMessage?.trim() || null;
    if (body.analysis !== undefined)
      next.analysis = {
        successRule: body.analysis.successRule?.trim() || null,
        fields: body.analysis.fields.map((field) => ({
          ...field,
          options: field.type === "enum" ? [...new Set(field.options)] : [],
        })),
      };
    if (body.knowledgeBaseIds !== undefined) {
      const ids = [...new Set(body.knowledgeBaseIds)];
      const found =
        ids.length > 0 && deps.knowledgeBasesOf ? await deps.knowledgeBasesOf(ref.orgId, ids) : [];
      if (found.length !== ids.length) throw badRequest(KB_MESSAGES.unknownKnowledgeBase);
      next.knowledgeBaseIds = ids;
    }
    const row = await repo.writeConfig(ref, "staging", next, body.revision);
    // Only apps the save adds: an app the owner removed stays removed when the next autosave lists it again.
    const added = next.apps.filter(
      (app) => !current.apps.some((had) => had.appId === app.appId && had.version === app.version),
    );
    if (row && added.length > 0) await deps.installApps?.(ref.orgId, added);
    if (!row) {
      const latest = await repo.findConfig(ref, "staging");
      throw conflict(STALE_SAVE_MESSAGE, { current: toCampaign(ref, "staging", latest) });
    }
    return { success: true as const, campaign: toCampaign(ref, "staging", row) };
  }

  /** What holds publishing (the agent's test suite): refuses a staging revision, else resolves. */
  let publishCheck: PublishCheck | null = null;

  async function publish(
    access: Access,
    agentId: number | undefined,
    revision?: number,
    overrideTests = false,
  ): Promise<CampaignsAnswer> {
    const { ref } = await resolveAgent(access, agentId, "canEditOrg");
    const stagingRow = await repo.findConfig(ref, "staging");
    if (revision !== undefined && revision !== (stagingRow?.revision ?? 0))
      throw conflict(STALE_SAVE_MESSAGE, { current: toCampaign(ref, "staging", stagingRow) });
    const staging = campaignFields(stagingRow?.config);
    if (!staging.agentInstructions.trim()) throw badRequest(PROMPT_REQUIRED_MESSAGE);
    if (!overrideTests) await publishCheck?.(ref);
    await repo.writeConfigs(ref, [
      { stage: "production", config: { ...staging, published: true } },
      ...(staging.published ? [] : [{ stage: "staging" as const, config: { ...staging, published: true } }]),
    ]);
    return campaignsOf(ref);
  }

  async function revert(access: Access, agentId: number | undefined): Promise<CampaignsAnswer> {
    const { ref } = await resolveAgent(access, agentId, "canEditOrg");
    const production = await repo.findConfig(ref, "production");
    if (!production) throw badRequest(AGENT_MESSAGES.notPublished);
    await overwrite(ref, "staging", { ...campaignFields(production.config), published: true });
    return campaignsOf(ref);
  }

  async function detach(access: Access, agentId: number | undefined): Promise<CampaignsAnswer> {
    const { ref } = await resolveAgent(access, agentId, "canEditOrg");
    for (const stage of ["staging", "production"] as const) {
      const row = await repo.findConfig(ref, stage);
      if (row && campaignFields(row.config).templateId !== null)
        await overwrite(ref, stage, { ...campaignFields(row.config), templateId: null });
    }
    return campaignsOf(ref);
  }

  // Versions

  function toVersion(row: AgentVersionRow, includeData: boolean): AgentVersion {
    return {
      id: row.id,
      agentId: row.agentAccountId,
      title: row.title,
      source: row.source,
      createdAt: row.createdAt.getTime(),
      ...(includeData ? { snapshot: campaignFields(row.snapshot) } : {}),
    };
  }

  async function snapshotOf(agent: AgentRef, source: Stage): Promise<CampaignFields> {
    const row = await repo.findConfig(agent, source);
    if (!row && source === "production") throw badRequest(AGENT_MESSAGES.notPublished);
    return campaignFields(row?.config);
  }

  async function findVersion(agent: AgentRef, versionId: number): Promise<AgentVersionRow> {
    const row = await repo.findVersion(agent, versionId);
    if (!row) throw notFound(AGENT_MESSAGES.versionNotFound);
    return row;
  }

  async function listVersions(access: Access, agentId: number, includeData: boolean) {
    const { ref } = await resolveAgent(access, agentId, "canViewOrg");
    const rows = await repo.listVersions(ref);
    return { success: true as const, versions: rows.map((row) => toVersion(row, includeData)) };
  }

  async function createVersion(access: Access, agentId: number, body: { title?: string; source: Stage }) {
    const { ref } = await resolveAgent(access, agentId, "canEditOrg");
    const snapshot = await snapshotOf(ref, body.source);
    const title = body.title ?? `Version ${(await repo.countVersions(ref)) + 1}`;
    const row = await repo.insertVersion(ref, { title, source: body.source, snapshot });
    return { success: true as const, version: toVersion(row, true) };
  }

  async function replaceVersion(
    access: Access,
    agentId: number,
    versionId: number,
    body: { snapshot?: Partial<CampaignFields>; source: Stage },
  ) {
    const { ref } = await resolveAgent(access, agentId, "canEditOrg");
    const existing = await findVersion(ref, versionId);
    const snapshot = body.snapshot
      ? campaignFields({ ...campaignFields(existing.snapshot), ...body.snapshot })
      : await snapshotOf(ref, body.source);
    const row = await repo.updateVersion(ref, versionId, {
      snapshot: { ...snapshot, apps: uniqueApps(snapshot.apps) },
      ...(body.snapshot ? {} : { source: body.source }),
    });
    if (!row) throw notFound(AGENT_MESSAGES.versionNotFound);
    return { success: true as const, version: toVersion(row, true) };
  }

  async function restoreVersion(access: Access, agentId: number, versionId: number, target: Stage) {
    const { ref } = await resolveAgent(access, agentId, "canEditOrg");
    const version = await findVersion(ref, versionId);
    const snapshot = campaignFields(version.snapshot);
    // Restoring into staging is an edit (unpublished until published); into production it is live.
    const campaign = await overwrite(ref, target, { ...snapshot, published: target === "production" });
    return { success: true as const, campaign };
  }

  async function renameVersion(access: Access, agentId: number, versionId: number, title: string) {
    const { ref } = await resolveAgent(access, agentId, "canEditOrg");
    const row = await repo.updateVersion(ref, versionId, { title });
    if (!row) throw notFound(AGENT_MESSAGES.versionNotFound);
    return { success: true as const, version: toVersion(row, false) };
  }

  return {
    resolveAgent,
    /** Sets what may hold a publish (the agent test suites); an override skips it. */
    usePublishCheck(check: PublishCheck) {
      publishCheck = check;
    },
    campaignsOf,
    answeringCampaignOf,
    overwrite,
    getCampaigns,
    saveCampaign,
    publish,
    revert,
    detach,
    listVersions,
    createVersion,
    replaceVersion,
    restoreVersion,
    renameVersion,
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
