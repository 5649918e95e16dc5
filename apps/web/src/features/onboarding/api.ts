import {
  type Campaign,
  createAgentAccount,
  createAgentFromTemplate,
  getCampaigns,
  listTemplates,
  publishAgent,
  saveAccountSetting,
  saveCampaign,
  type Template,
} from "@switchboard/api";
import { findTimezoneByValue, type OnboardingTemplate, type TemplateField } from "@switchboard/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { browserTimeZone } from "../../lib/time-format.ts";
import { draftInstructions } from "./draft-instructions.ts";
import type { SavedOnboarding } from "./onboarding-persistence.ts";
import { voiceLanguage } from "./voices.ts";

export type { Campaign, Template };

const ACCOUNT_LISTS_KEY = "account-lists";

/** GET /api/v2/templates: the templates the account in view may use. */
export function useTemplates() {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["onboarding", "templates", accountId, viewingAs],
    queryFn: async ({ signal }) => (await apiClient.call(listTemplates, { signal })).templates,
  });
}

/** A template as core's onboarding machine reads it (string id, fields as sent). */
export function toOnboardingTemplate(template: Template): OnboardingTemplate {
  return {
    id: String(template.id),
    templateFields: template.templateFields.map((field) => {
      const { disabledIf, ...rest } = field;
      return typeof disabledIf === "string" ? { ...rest, disabledIf } : rest;
    }) as TemplateField[],
    templateIntegrations: template.templateIntegrations,
    actions: template.actions,
    apps: template.apps.map((app) => ({ appId: app.appId, version: app.version })),
  };
}

/** POST /api/v1/accountSetting { onboarding } on the account in view. */
export function saveOnboardingSettings(value: SavedOnboarding) {
  return apiClient.call(saveAccountSetting, { body: { settings: { onboarding: value } } });
}

/** This browser's IANA zone. */
const browserZone = (): string | undefined => browserTimeZone();

/**
 * The IANA zone the runtime uses for a time-zone table value: the browser's own zone when the chosen row
 * lists it (a New Yorker's "Eastern Standard Time" is America/New_York, not the row's first city), else the
 * row's first zone. With no choice (the step skipped), the browser's zone.
 */
export function ianaZone(
  timezone: string | null,
  browser: string | undefined = browserZone(),
): string | undefined {
  if (!timezone) return browser;
  const entry = findTimezoneByValue(timezone);
  if (!entry) return timezone;
  return browser && entry.utc.includes(browser) ? browser : entry.utc[0];
}

export type GenerateInput =
  | {
      method: "BUILD_FROM_TEMPLATE";
      template: Template;
      name: string;
      fields: readonly TemplateField[];
      timezone: string | null;
      voice: string | null;
    }
  | { method: "BUILD_FROM_SCRATCH"; name: string; description: string };

export type Generated = { agentId: number; campaign: Campaign };

/** Saves instructions as the agent's staging campaign and publishes it, so calls use them at once. */
async function saveAndPublish(
  agentId: number,
  base: Campaign | null,
  changes: {
    agentInstructions: string;
    greeting?: string | undefined;
    timezone?: string | undefined;
    voice?: string | undefined;
    language?: string | undefined;
  },
): Promise<Campaign> {
  const saved = await apiClient.call(saveCampaign, {
    body: {
      agentId,
      ...(base ? { revision: base.revision, confirmTransfers: base.confirmTransfers } : {}),
      agentInstructions: changes.agentInstructions,
      published: false,
      ...(changes.greeting !== undefined ? { greeting: changes.greeting } : {}),
      ...(changes.timezone !== undefined ? { timezone: changes.timezone } : {}),
      ...(changes.voice !== undefined ? { voice: changes.voice } : {}),
      ...(changes.language !== undefined ? { language: changes.language } : {}),
    },
  });
  const published = await apiClient.call(publishAgent, {
    body: { agentId, revision: saved.campaign.revision },
  });
  return published.staging;
}

/**
 * The generate step: creates the agent (from the template: POST /api/v2/createAgentFromTemplate; from
 * scratch: POST /api/v2/createAccount), drafts its instructions and saves them (POST /api/v2/campaign, then
 * publish).
 */
export function useGenerateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: GenerateInput): Promise<Generated> => {
      if (input.method === "BUILD_FROM_TEMPLATE") {
        const timezone = ianaZone(input.timezone);
        const created = await apiClient.call(createAgentFromTemplate, {
          body: {
            templateId: input.template.id,
            name: input.name,
            templateFields: input.fields.map((field) => ({ key: field.key, value: field.value })),
            ...(timezone ? { timezone } : {}),
            ...(input.voice ? { voice: input.voice } : {}),
            ...(voiceLanguage(input.voice) ? { language: voiceLanguage(input.voice) } : {}),
          },
        });
        const agentId = created.account.id;
        const { agentInstructions: drafted } = await draftInstructions({
          method: input.method,
          templateInstructions: created.campaign.agentInstructions,
          fields: input.fields,
        });
        if (drafted.trim() === "" || drafted === created.campaign.agentInstructions) {
          return { agentId, campaign: created.campaign };
        }
        return {
          agentId,
          campaign: await saveAndPublish(agentId, created.campaign, { agentInstructions: drafted }),
        };
      }
      const drafted = await draftInstructions({
        method: input.method,
        agentName: input.name,
        description: input.description,
      });
      const created = await apiClient.call(createAgentAccount, { body: { name: input.name } });
      const agentId = created.account.id;
      // A new agent has no greeting of its own: it opens with the drafted one.
      return {
        agentId,
        campaign: await saveAndPublish(agentId, null, {
          agentInstructions: drafted.agentInstructions,
          ...(drafted.greeting ? { greeting: drafted.greeting } : {}),
        }),
      };
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [ACCOUNT_LISTS_KEY] });
    },
  });
}

/** GET /api/v2/campaigns for the agent the wizard made. */
export function useAgentCampaign(agentId: number | null) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["onboarding", "campaign", accountId, viewingAs, agentId],
    enabled: agentId !== null,
    queryFn: async ({ signal }) =>
      (await apiClient.call(getCampaigns, { query: { agentId: agentId as number }, signal })).staging,
  });
}

/** The edit step's save: instructions (and the wizard's time zone and voice), then publish. */
export function useSaveInstructions(agentId: number | null) {
  const queryClient = useQueryClient();
  const [accountId, viewingAs] = useAccountKey();
  return useMutation({
    mutationFn: (input: {
      base: Campaign;
      agentInstructions: string;
      timezone: string | null;
      voice: string | null;
    }) =>
      saveAndPublish(agentId as number, input.base, {
        agentInstructions: input.agentInstructions,
        timezone: ianaZone(input.timezone),
        voice: input.voice ?? undefined,
        language: voiceLanguage(input.voice),
      }),
    onSuccess: (campaign) => {
      queryClient.setQueryData(["onboarding", "campaign", accountId, viewingAs, agentId], campaign);
    },
  });
}
