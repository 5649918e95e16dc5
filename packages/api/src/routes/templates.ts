import { z } from "zod";
import { idSchema, revisionSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { actionSchema, campaignAppSchema, campaignFieldsSchema, campaignSchema } from "./agents.ts";
import { accountListItemSchema, queryBooleanSchema } from "./hierarchy.ts";

/** User-facing messages of these routes; each key is its code in the catalogue (packages/api messages.ts). */
export const TEMPLATE_MESSAGES = {
  notFound: "Template not found",
  deleted: "Template deleted.",
  readOnly: "This template can only be changed by its owner.",
} as const;

/** Product spec §8: what the web app shows when a migration answers neither success nor a message. */
export const MIGRATION_FAILED_MESSAGE = "Migration failed";
export const TEMPLATE_STALE_MESSAGE = "This template was changed elsewhere. Review the newer version.";

const id = idSchema;

/** A field the onboarding wizard asks for (product spec §3 Onboarding state); `key` names a `{key}` variable. */
export const templateFieldSchema = z.looseObject({
  key: z.string().trim().min(1).max(100),
  label: z.string().max(200).optional(),
  type: z.string().max(40).optional(),
  inputType: z.string().max(40).optional(),
  options: z.array(z.looseObject({ value: z.string() })).optional(),
  value: z.unknown().optional(),
  placeholder: z.string().max(500).optional(),
  disabledIf: z.unknown().optional(),
  autoPrefilled: z.boolean().optional(),
});
export type TemplateField = z.infer<typeof templateFieldSchema>;

const templateContent = {
  description: z.string().max(2000).nullable(),
  /** The instructions with `{key}` template variables. */
  agentInstructions: z.string().max(100_000),
  templateFields: z.array(templateFieldSchema).max(100),
  /** Integration names the template needs (an action named schedule implies a calendar). */
  templateIntegrations: z.array(z.string().max(100)).max(50),
  actions: z.array(actionSchema).max(50),
  apps: z.array(campaignAppSchema).max(50),
  enabledFunctions: z.record(z.string(), z.array(z.string().max(100))),
  confirmTransfers: z.boolean(),
  greeting: z.string().max(2000).nullable(),
};

export const templateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The account that owns it (visible to that account and below); null for a built-in template. */
  ownerAccountId: z.number().int().nullable(),
  builtIn: z.boolean(),
  /** May the caller change or delete it? */
  editable: z.boolean(),
  ...templateContent,
  revision: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Template = z.infer<typeof templateSchema>;

const templateName = z.string().trim().min(1, { message: "Enter a name." }).max(120);
const contentInput = z.object(templateContent).partial();
const templateAnswer = z.object({ success: z.literal(true), template: templateSchema });

export const listTemplates = defineRoute({
  id: "listTemplates",
  method: "GET",
  path: "/api/v2/templates",
  summary:
    "The templates the target account may use: built-in ones and those of the target and its ancestors.",
  tag: "Templates",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({ success: z.literal(true), templates: z.array(templateSchema) }),
});

export const getTemplate = defineRoute({
  id: "getTemplate",
  method: "GET",
  path: "/api/v2/templates/{id}",
  summary: "One template the target account may use.",
  tag: "Templates",
  auth: "token",
  permission: "canViewOrg",
  params: z.object({ id }),
  response: templateAnswer,
});

export const updateTemplate = defineRoute({
  id: "updateTemplate",
  method: "POST",
  path: "/api/v2/templates/{id}",
  summary:
    "Change a template owned by the target account or below it (built-in ones: super admin only). `revision` guards against stale saves (409). Agents made from it change when it is migrated.",
  tag: "Templates",
  auth: "token",
  permission: "canEditOrg",
  params: z.object({ id }),
  body: contentInput.extend({
    name: templateName.optional(),
    revision: revisionSchema.optional(),
  }),
  response: templateAnswer,
});

export const deleteTemplate = defineRoute({
  id: "deleteTemplate",
  method: "DELETE",
  path: "/api/v2/templates/{id}",
  summary:
    "Delete a template owned by the target account or below it. Agents made from it keep their configuration.",
  tag: "Templates",
  auth: "token",
  permission: "canEditOrg",
  params: z.object({ id }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});

export const createTemplate = defineRoute({
  id: "createTemplate",
  method: "POST",
  path: "/api/v2/templates/createTemplate",
  summary:
    "Create a template owned by the target account (an agent's organisation for an agent account); with agentId it starts from that agent's staging campaign. A super admin may create a built-in one (builtIn).",
  tag: "Templates",
  auth: "token",
  permission: "canEditOrg",
  body: contentInput.extend({
    name: templateName,
    agentId: id.optional(),
    builtIn: z.boolean().default(false),
  }),
  response: templateAnswer,
});

export const createAgentFromTemplate = defineRoute({
  id: "createAgentFromTemplate",
  method: "POST",
  path: "/api/v2/createAgentFromTemplate",
  summary:
    "Create an agent account under the target organisation from a template: its staging campaign is the template's, linked to it, with the template field values as variables.",
  tag: "Templates",
  auth: "token",
  permission: "canAddAgents",
  body: z.object({
    templateId: id,
    name: templateName,
    /** Values of the template fields, by key. */
    templateFields: z
      .union([
        z.record(z.string(), z.unknown()),
        z.array(z.looseObject({ key: z.string(), value: z.unknown().optional() })),
      ])
      .optional(),
    timezone: z.string().max(100).optional(),
    voice: z.string().max(200).optional(),
    language: z.string().max(40).optional(),
  }),
  response: z.object({ success: z.literal(true), account: accountListItemSchema, campaign: campaignSchema }),
});

export const migrationSchema = z.object({
  templateId: z.number().int(),
  dryRun: z.boolean(),
  /** The agents linked to the template (in the target's subtree) and what changes for each. */
  agents: z.array(
    z.object({
      agentId: z.number().int(),
      stages: z.array(z.enum(["staging", "production"])),
      changedFields: z.array(z.string()),
    }),
  ),
  migrated: z.number().int(),
});
export type Migration = z.infer<typeof migrationSchema>;

export const migrateTemplate = defineRoute({
  id: "migrateTemplate",
  method: "POST",
  path: "/api/v2/templates/{id}/migrate",
  summary:
    "Bring the agents made from the template (in the target's subtree) up to date with it; dryRun answers what would change without changing it.",
  tag: "Templates",
  auth: "token",
  permission: "canEditOrg",
  params: z.object({ id }),
  body: z.object({ dryRun: z.boolean().default(false) }),
  response: z.object({ success: z.literal(true), migration: migrationSchema, message: z.string() }),
});

// Event rules: the configuration the agent runtime loads.

export const agentRulesSchema = campaignFieldsSchema.extend({
  agentId: z.number().int(),
  stage: z.enum(["staging", "production"]),
  /** Were the `{key}` template variables replaced by their values? */
  templateVariablesReplaced: z.boolean(),
});
export type AgentRules = z.infer<typeof agentRulesSchema>;

const rulesQuery = z.object({
  agentId: id.optional(),
  /** false: leave `{key}` variables as they are. */
  replaceTemplateVars: queryBooleanSchema.optional(),
  /** Replace them also for a super admin or a reseller/partner acting above the agent. */
  forceReplaceTemplateVars: queryBooleanSchema.optional(),
});
const rulesAnswer = z.object({ success: z.literal(true), rules: agentRulesSchema });

export const getStagingEventRules = defineRoute({
  id: "getStagingEventRules",
  method: "GET",
  path: "/api/v2/agentEventRules/staging",
  summary:
    "The agent's staging rules as the runtime loads them (template variables replaced, per product spec §6).",
  tag: "Agents",
  auth: "token",
  permission: "canViewOrg",
  query: rulesQuery,
  response: rulesAnswer,
});

export const getDefaultEventRules = defineRoute({
  id: "getDefaultEventRules",
  method: "GET",
  path: "/api/v2/agentEventRules/default",
  summary:
    "The agent's live rules: production once published, staging before. Template variables are replaced except for a super admin or reseller unless forced (product spec §6).",
  tag: "Agents",
  auth: "token",
  permission: "canViewOrg",
  query: rulesQuery,
  response: rulesAnswer,
});

export const templateRoutes = [
  listTemplates,
  createTemplate,
  getTemplate,
  updateTemplate,
  deleteTemplate,
  createAgentFromTemplate,
  migrateTemplate,
] as const;
export const eventRuleRoutes = [getStagingEventRules, getDefaultEventRules] as const;
