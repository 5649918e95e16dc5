import {
  ANALYSIS_FIELD_TYPES,
  analysisFieldNameProblem,
  CAMPAIGN_PUBLISHED_DEFAULT,
  CONFIRM_TRANSFERS_DEFAULT,
  MAX_ANALYSIS_FIELDS,
  RESTORE_TARGET_DEFAULT,
  VERSION_SOURCE_DEFAULT,
} from "@switchboard/core";
import { z } from "zod";
import { idSchema, revisionSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { queryBooleanSchema } from "./hierarchy.ts";

/** User-facing messages of these routes; each key is its code in the catalogue (packages/api messages.ts). */
export const AGENT_MESSAGES = {
  agentNotFound: "Agent not found",
  agentRequired: "agentId: choose an agent account",
  notPublished: "This agent has not been published yet.",
  versionNotFound: "Version not found",
} as const;

/** Product spec §5: a campaign save or publish needs non-empty agentInstructions. */
export const PROMPT_REQUIRED_MESSAGE = "Please enter a prompt.";
/** The 409 answer to a save based on a stale revision; the body also carries `current`. */
export const STALE_SAVE_MESSAGE = "This agent was changed elsewhere. Review the newer version.";

export const stageSchema = z.enum(["staging", "production"]);
export type Stage = z.infer<typeof stageSchema>;

const id = idSchema;

/** An app a campaign uses: both appId and version are needed (product spec §5). */
export const campaignAppSchema = z.object({
  appId: z.string().trim().min(1, { message: "appId is required" }).max(100),
  version: z.string().trim().min(1, { message: "version is required" }).max(40),
});
export type CampaignApp = z.infer<typeof campaignAppSchema>;

/** An action of a campaign or template: a name plus its own settings (`schedule` implies a calendar). */
export const actionSchema = z.looseObject({ name: z.string().trim().min(1).max(100) });
export type Action = z.infer<typeof actionSchema>;

/** What an agent does when answering-machine detection finds a voicemail on an outbound call. */
export const VOICEMAIL_ACTIONS = ["leave_message", "hang_up"] as const;
export type VoicemailAction = (typeof VOICEMAIL_ACTIONS)[number];

/** One field the post-call analysis fills in (written to the log row's data under its name). */
export const analysisFieldSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: "Enter a field name." })
    .superRefine((name, ctx) => {
      const problem = analysisFieldNameProblem(name);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  type: z.enum(ANALYSIS_FIELD_TYPES),
  /** What the field holds, for the model (and the owner). */
  description: z.string().trim().max(500).default(""),
  /** The values an `enum` field may take. */
  options: z.array(z.string().trim().min(1).max(100)).max(30).default([]),
});
export type AnalysisField = z.infer<typeof analysisFieldSchema>;

/**
 * The agent's post-call analysis: the rule a conversation is judged successful by ("booked an appointment
 * or answered the question"; none: no verdict) and the fields to fill in.
 */
export const callAnalysisSettingsSchema = z
  .object({
    successRule: z.string().trim().max(1000).nullable(),
    fields: z.array(analysisFieldSchema).max(MAX_ANALYSIS_FIELDS),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.fields.forEach((field, index) => {
      const key = field.name.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({
          code: "custom",
          path: ["fields", index, "name"],
          message: `Two fields are named “${field.name}”.`,
        });
      seen.add(key);
      if (field.type === "enum" && field.options.length === 0)
        ctx.addIssue({
          code: "custom",
          path: ["fields", index, "options"],
          message: `Give the values “${field.name}” may take.`,
        });
    });
  });
export type CallAnalysisSettings = z.infer<typeof callAnalysisSettingsSchema>;

/**
 * A conversation's analysis as kept on the conversation (`outcome.analysis`, shown in Calls → details);
 * the same values are in its log row's data (core ANALYSIS_DATA_KEYS and each field under its name).
 */
export const callAnalysisSchema = z.object({
  summary: z.string(),
  /** The verdict against the success rule; null when there is no rule or it could not be judged. */
  successful: z.boolean().nullable(),
  successEvaluation: z.string(),
  /** The fields that were determined, by name. */
  fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  /** Field names (and `success`) that could not be determined. */
  undetermined: z.array(z.string()),
  model: z.string(),
  analyzedAt: z.number(),
});
export type CallAnalysis = z.infer<typeof callAnalysisSchema>;

/** The configuration fields of a campaign (product spec §3 Campaign) as stored and answered. */
export const campaignFieldsSchema = z.object({
  agentInstructions: z.string(),
  published: z.boolean(),
  confirmTransfers: z.boolean(),
  apps: z.array(campaignAppSchema),
  /** Function names enabled per app, keyed `appId@version`. */
  enabledFunctions: z.record(z.string(), z.array(z.string())),
  actions: z.array(actionSchema),
  templateId: z.number().int().nullable(),
  timezone: z.string().nullable(),
  language: z.string().nullable(),
  voice: z.string().nullable(),
  /** What the agent says first when someone calls or writes to it ({key} variables filled in). */
  greeting: z.string().nullable(),
  /**
   * What the agent says first on a call or text it starts (a task): null for "Hi, this is <agent> from
   * <organisation>, calling about <about>." ({key} variables and the task's columns filled in).
   */
  outboundGreeting: z.string().nullable(),
  /** Values of the template variables (`{key}` in the instructions). */
  variables: z.record(z.string(), z.string()),
  /** The organisation's knowledge bases the agent searches (its knowledge tool). */
  knowledgeBaseIds: z.array(z.number().int()),
  /**
   * Outbound calls a voicemail answered: leave `voicemailMessage` after the beep, then hang up
   * (`leave_message`), or hang up at once (`hang_up`).
   */
  voicemailAction: z.enum(VOICEMAIL_ACTIONS),
  /** The message left on a voicemail ({key} variables and a task's columns filled in); the outbound greeting when null. */
  voicemailMessage: z.string().nullable(),
  /** What the post-call analysis judges and fills in for each conversation of the agent. */
  analysis: callAnalysisSettingsSchema,
});
export type CampaignFields = z.infer<typeof campaignFieldsSchema>;

/** One stored copy (staging or production) of an agent's campaign. */
export const campaignSchema = campaignFieldsSchema.extend({
  /** The campaign id: the agent account id. */
  id: z.number().int(),
  agentId: z.number().int(),
  stage: stageSchema,
  /** Grows with every change of this copy; 0 for a copy never saved. Send it back with the next save. */
  revision: z.number().int(),
  updatedAt: z.number().nullable(),
});
export type Campaign = z.infer<typeof campaignSchema>;

/** The body of the 409 answer to a stale save. */
export const staleSaveSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  current: campaignSchema,
});
export type StaleSave = z.infer<typeof staleSaveSchema>;

/** Which agent a call acts on: the target when it is an agent account, else `agentId` below the target. */
const agentRef = { agentId: id.optional() };

const campaignsAnswer = z.object({
  success: z.literal(true),
  agentId: z.number().int(),
  staging: campaignSchema,
  /** null until the agent is published for the first time. */
  production: campaignSchema.nullable(),
});
export type CampaignsAnswer = z.infer<typeof campaignsAnswer>;

export const getCampaigns = defineRoute({
  id: "getCampaigns",
  method: "GET",
  path: "/api/v2/campaigns",
  summary:
    "The staging and production campaign of an agent: the target account when it is an agent, else agentId below the target.",
  tag: "Agents",
  auth: "token",
  permission: "canViewOrg",
  query: z.object(agentRef),
  response: campaignsAnswer,
});

export const saveCampaign = defineRoute({
  id: "saveCampaign",
  method: "POST",
  path: "/api/v2/campaign",
  summary:
    "Save the agent's staging campaign. `revision` is the one the edit was based on (absent: no check); a stale one answers 409 with the current campaign. An app already present is not added twice.",
  tag: "Agents",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    ...agentRef,
    revision: revisionSchema.optional(),
    agentInstructions: z.string().default(""),
    published: z.boolean().default(CAMPAIGN_PUBLISHED_DEFAULT),
    confirmTransfers: z.boolean().default(CONFIRM_TRANSFERS_DEFAULT),
    apps: z.array(campaignAppSchema).max(50).optional(),
    enabledFunctions: z.record(z.string(), z.array(z.string().max(100)).max(100)).optional(),
    actions: z.array(actionSchema).max(50).optional(),
    templateId: idSchema.nullable().optional(),
    timezone: z.string().max(100).nullable().optional(),
    language: z.string().max(40).nullable().optional(),
    voice: z.string().max(200).nullable().optional(),
    greeting: z.string().max(2000).nullable().optional(),
    outboundGreeting: z.string().max(2000).nullable().optional(),
    variables: z.record(z.string(), z.string().max(2000)).optional(),
    knowledgeBaseIds: z.array(idSchema).max(20).optional(),
    voicemailAction: z.enum(VOICEMAIL_ACTIONS).optional(),
    voicemailMessage: z.string().max(2000).nullable().optional(),
    analysis: callAnalysisSettingsSchema.optional(),
  }),
  response: z.object({ success: z.literal(true), campaign: campaignSchema }),
});

export const publishAgent = defineRoute({
  id: "publishAgent",
  method: "POST",
  path: "/api/v2/agent/publish",
  summary:
    "Publish the agent's staging campaign to production. With `revision`, only the staging copy the caller saw (else 409 with the current one). A required test scenario that has not passed on this revision refuses it (409, `failingTests`) unless `overrideTests`.",
  tag: "Agents",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    ...agentRef,
    revision: revisionSchema.optional(),
    /** Publish although a required test scenario has not passed on this version (agent-tests). */
    overrideTests: z.boolean().default(false),
  }),
  response: campaignsAnswer,
});

export const revertAgent = defineRoute({
  id: "revertAgent",
  method: "POST",
  path: "/api/v2/agent/revert",
  summary: "Replace the agent's staging campaign with its production campaign.",
  tag: "Agents",
  auth: "token",
  permission: "canEditOrg",
  body: z.object(agentRef),
  response: campaignsAnswer,
});

export const detachAgentFromTemplate = defineRoute({
  id: "detachAgentFromTemplate",
  method: "POST",
  path: "/api/v2/detachAgentFromTemplate",
  summary:
    "Detach the agent from its template: it keeps its configuration, becomes a full agent and no longer migrates.",
  tag: "Agents",
  auth: "token",
  permission: "canEditOrg",
  body: z.object(agentRef),
  response: campaignsAnswer,
});

// Versions

export const agentVersionSchema = z.object({
  id: z.number().int(),
  agentId: z.number().int(),
  title: z.string(),
  source: z.string(),
  /** ms epoch */
  createdAt: z.number(),
  /** The whole configuration; only with includeData. */
  snapshot: campaignFieldsSchema.optional(),
});
export type AgentVersion = z.infer<typeof agentVersionSchema>;

const versionTitle = z.string().trim().min(1, { message: "Enter a title." }).max(200);
const agentPath = z.object({ id });
const versionPath = z.object({ id, versionId: id });
const versionAnswer = z.object({ success: z.literal(true), version: agentVersionSchema });

export const listAgentVersions = defineRoute({
  id: "listAgentVersions",
  method: "GET",
  path: "/api/v2/agent/{id}/versions",
  summary: "The agent's versions, newest first; includeData adds each snapshot.",
  tag: "Agents",
  auth: "token",
  permission: "canViewOrg",
  params: agentPath,
  query: z.object({ includeData: queryBooleanSchema.default(false) }),
  response: z.object({ success: z.literal(true), versions: z.array(agentVersionSchema) }),
});

export const createAgentVersion = defineRoute({
  id: "createAgentVersion",
  method: "POST",
  path: "/api/v2/agent/{id}/versions",
  summary: "Make a version: a snapshot of the agent's staging (default) or production campaign.",
  tag: "Agents",
  auth: "token",
  permission: "canEditOrg",
  params: agentPath,
  body: z.object({
    title: versionTitle.optional(),
    source: stageSchema.default(VERSION_SOURCE_DEFAULT),
  }),
  response: versionAnswer,
});

export const replaceAgentVersion = defineRoute({
  id: "replaceAgentVersion",
  method: "POST",
  path: "/api/v2/agent/{id}/versions/{versionId}",
  summary:
    "Replace the version's snapshot: with the given snapshot, else with a fresh snapshot of source (default staging).",
  tag: "Agents",
  auth: "token",
  permission: "canEditOrg",
  params: versionPath,
  body: z.object({
    snapshot: campaignFieldsSchema.partial().optional(),
    source: stageSchema.default(VERSION_SOURCE_DEFAULT),
  }),
  response: versionAnswer,
});

export const restoreAgentVersion = defineRoute({
  id: "restoreAgentVersion",
  method: "POST",
  path: "/api/v2/agent/{id}/versions/{versionId}/restore",
  summary: "Restore the version into the target campaign (default staging).",
  tag: "Agents",
  auth: "token",
  permission: "canEditOrg",
  params: versionPath,
  body: z.object({ target: stageSchema.default(RESTORE_TARGET_DEFAULT) }),
  response: z.object({ success: z.literal(true), campaign: campaignSchema }),
});

export const renameAgentVersion = defineRoute({
  id: "renameAgentVersion",
  method: "PUT",
  path: "/api/v2/agent/{id}/versions/{versionId}/title",
  summary: "Rename a version.",
  tag: "Agents",
  auth: "token",
  permission: "canEditOrg",
  params: versionPath,
  body: z.object({ title: versionTitle }),
  response: versionAnswer,
});

export const campaignRoutes = [
  getCampaigns,
  saveCampaign,
  publishAgent,
  revertAgent,
  detachAgentFromTemplate,
] as const;
export const agentVersionRoutes = [
  listAgentVersions,
  createAgentVersion,
  replaceAgentVersion,
  restoreAgentVersion,
  renameAgentVersion,
] as const;
