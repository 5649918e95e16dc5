import {
  type AccountListItem,
  ApiRequestError,
  type CallInput,
  type Campaign,
  type CampaignFields,
  type CampaignsAnswer,
  createAgentAccount,
  createAgentFromTemplate,
  createAgentVersion,
  createTemplate,
  deleteTemplate,
  detachAgentFromTemplate,
  type FailingTest,
  getCampaigns,
  listAgentAccounts,
  listAgentFunctions,
  listAgentVersions,
  listTemplates,
  migrateTemplate,
  promptSuggestions,
  publishAgent,
  publishHeldSchema,
  renameAgentVersion,
  restoreAgentVersion,
  revertAgent,
  runPrompt,
  type StaleSave,
  saveAccountSetting,
  saveCampaign,
  type Template,
  updateAccount,
  updateTemplate,
} from "@switchboard/api";
import { orderFavorites } from "@switchboard/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey, useAccountState } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { ACCOUNT_LISTS_KEY, callFor } from "../accounts/api.ts";

export type { AccountListItem, Campaign, CampaignFields, Template };

/** Every agent account of the organisation in view (one unpaged call: an organisation has few agents). */
export function useOrganizationAgents(enabled = true) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: [ACCOUNT_LISTS_KEY, "agents", accountId, viewingAs, "all"],
    enabled,
    queryFn: ({ signal }) =>
      apiClient.call(listAgentAccounts, { query: { pagination: false, active: true }, signal }),
  });
}

/** The saved favourites (account settings `favorites`: an ordered list of agent ids). */
export function favoriteIds(settings: Record<string, unknown>): number[] {
  const saved = settings.favorites;
  if (!Array.isArray(saved)) return [];
  return saved.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
}

/**
 * The favourites strip (product spec §4.5): agents in the saved favourites order, the rest appended, the
 * first five shown.
 */
export function favoriteAgents(
  agents: readonly AccountListItem[],
  favorites: readonly number[],
): AccountListItem[] {
  return orderFavorites(agents, favorites, (agent) => agent.id);
}

/** Stars or un-stars an agent: the favourites list of the organisation in view is saved in its settings. */
export function useToggleFavorite() {
  const { view, refresh } = useAccountState();
  return useMutation({
    mutationFn: (agentId: number) => {
      const current = favoriteIds(view.account.settings);
      const next = current.includes(agentId) ? current.filter((id) => id !== agentId) : [...current, agentId];
      return apiClient.call(saveAccountSetting, { body: { settings: { favorites: next } } });
    },
    onSuccess: () => refresh(),
  });
}

// Campaigns

export const campaignsKey = (agentId: number) => ["agent-campaigns", agentId] as const;

export function useCampaigns(agentId: number | null) {
  return useQuery({
    queryKey: campaignsKey(agentId ?? 0),
    queryFn: ({ signal }) => loadCampaigns(agentId as number, signal),
    enabled: agentId !== null,
  });
}

export function loadCampaigns(agentId: number, signal?: AbortSignal): Promise<CampaignsAnswer> {
  return apiClient.call(getCampaigns, { query: { agentId }, signal });
}

export async function saveStagingCampaign(
  agentId: number,
  fields: CampaignFields,
  revision: number,
): Promise<Campaign> {
  const { templateId, ...rest } = fields;
  const answer = await apiClient.call(saveCampaign, {
    body: { ...rest, ...(templateId === null ? {} : { templateId }), agentId, revision },
  });
  return answer.campaign;
}

export function publishStaging(
  agentId: number,
  revision: number,
  overrideTests = false,
): Promise<CampaignsAnswer> {
  return apiClient.call(publishAgent, {
    body: { agentId, revision, ...(overrideTests ? { overrideTests } : {}) },
  });
}

/** The required test scenarios that held a publish (its 409), or null for any other failure. */
export function heldByTests(error: unknown): FailingTest[] | null {
  if (!(error instanceof ApiRequestError) || error.status !== 409) return null;
  const held = publishHeldSchema.safeParse(error.body);
  return held.success ? held.data.failingTests : null;
}

export function revertStaging(agentId: number): Promise<CampaignsAnswer> {
  return apiClient.call(revertAgent, { body: { agentId } });
}

export function detachFromTemplate(agentId: number): Promise<CampaignsAnswer> {
  return apiClient.call(detachAgentFromTemplate, { body: { agentId } });
}

/** The current campaign carried by a stale save's 409, or null for any other failure. */
export function staleCurrent(error: unknown): Campaign | null {
  if (!(error instanceof ApiRequestError) || error.status !== 409) return null;
  const body = error.body as Partial<StaleSave> | undefined;
  return body?.current ?? null;
}

/**
 * The text of a failed campaign call (spec §8): the server's message first; a refusal without one gets
 * `refused`; a request that never got an answer (network) gets `unreachable`.
 */
export function campaignErrorText(error: unknown, refused: string, unreachable: string): string {
  if (error instanceof ApiRequestError) {
    const body = error.body as { message?: unknown } | undefined;
    return typeof body?.message === "string" && body.message ? body.message : refused;
  }
  return unreachable;
}

// Functions the installed apps provide

export function useAgentFunctions(agentId: number) {
  return useQuery({
    queryKey: ["agent-functions", agentId],
    queryFn: ({ signal }) => apiClient.call(listAgentFunctions, { query: { agentId }, signal }),
  });
}

// Versions

export const versionsKey = (agentId: number, includeData = false) =>
  ["agent-versions", agentId, includeData] as const;

export function useVersions(agentId: number, includeData = false) {
  return useQuery({
    queryKey: versionsKey(agentId, includeData),
    queryFn: ({ signal }) =>
      apiClient.call(listAgentVersions, { params: { id: agentId }, query: { includeData }, signal }),
  });
}

function useInvalidateVersions(agentId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["agent-versions", agentId] });
}

export function useCreateVersion(agentId: number) {
  const invalidate = useInvalidateVersions(agentId);
  return useMutation({
    mutationFn: (body: CallInput<typeof createAgentVersion>["body"]) =>
      apiClient.call(createAgentVersion, { params: { id: agentId }, body }),
    onSuccess: invalidate,
  });
}

export function useRenameVersion(agentId: number) {
  const invalidate = useInvalidateVersions(agentId);
  return useMutation({
    mutationFn: (input: { versionId: number; title: string }) =>
      apiClient.call(renameAgentVersion, {
        params: { id: agentId, versionId: input.versionId },
        body: { title: input.title },
      }),
    onSuccess: invalidate,
  });
}

export function restoreVersion(agentId: number, versionId: number): Promise<Campaign> {
  return apiClient
    .call(restoreAgentVersion, { params: { id: agentId, versionId }, body: { target: "staging" } })
    .then((answer) => answer.campaign);
}

// Templates

export const TEMPLATES_KEY = "templates";

export function useTemplates() {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: [TEMPLATES_KEY, accountId, viewingAs],
    queryFn: ({ signal }) => apiClient.call(listTemplates, { signal }),
  });
}

function useInvalidateTemplates() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [TEMPLATES_KEY] });
}

export function useCreateTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: (body: CallInput<typeof createTemplate>["body"]) => apiClient.call(createTemplate, { body }),
    onSuccess: invalidate,
  });
}

export function useUpdateTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: (input: { id: number; body: CallInput<typeof updateTemplate>["body"] }) =>
      apiClient.call(updateTemplate, { params: { id: input.id }, body: input.body }),
    onSuccess: invalidate,
  });
}

export function migrateTemplateAgents(templateId: number, dryRun: boolean) {
  return apiClient.call(migrateTemplate, { params: { id: templateId }, body: { dryRun } });
}

// Creating agents

/** Creates an agent of the organisation in view: from a template, or from scratch with its instructions. */
export function useCreateAgent() {
  const queryClient = useQueryClient();
  const { refresh } = useAccountState();
  return useMutation({
    mutationFn: async (
      input:
        | { kind: "template"; name: string; templateId: number; templateFields: Record<string, string> }
        | { kind: "scratch"; name: string; agentInstructions: string; greeting: string },
    ): Promise<AccountListItem> => {
      if (input.kind === "template") {
        const answer = await apiClient.call(createAgentFromTemplate, {
          body: { name: input.name, templateId: input.templateId, templateFields: input.templateFields },
        });
        return answer.account;
      }
      const { account } = await apiClient.call(createAgentAccount, { body: { name: input.name } });
      await apiClient.call(saveCampaign, {
        body: {
          agentId: account.id,
          agentInstructions: input.agentInstructions,
          ...(input.greeting.trim() ? { greeting: input.greeting.trim() } : {}),
          published: true,
        },
      });
      return account;
    },
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: [ACCOUNT_LISTS_KEY] }), refresh()]);
    },
  });
}

/** The agent account's own fields (POST /api/v2/updateAccount with the agent as target). */
export function useUpdateAgentAccount(agentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CallInput<typeof updateAccount>["body"]) => callFor(updateAccount, agentId, { body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [ACCOUNT_LISTS_KEY] }),
        queryClient.invalidateQueries({ queryKey: ["account-by-id", agentId] }),
      ]),
  });
}

// The runtime's help while editing (issue 6): one prompt against the draft, and a review of the prompt.

export function useRunPrompt(agentId: number) {
  return useMutation({
    mutationFn: (promptText: string) =>
      apiClient.call(runPrompt, { body: { targetAgent: agentId, promptText, stage: "staging" } }),
  });
}

export function usePromptSuggestions(agentId: number) {
  return useMutation({
    mutationFn: (input: { agentInstructions: string; greeting: string | null }) =>
      apiClient.call(promptSuggestions, { body: { agentId, ...input } }),
  });
}

export function useDeleteTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: (id: number) => apiClient.call(deleteTemplate, { params: { id } }),
    onSuccess: invalidate,
  });
}
