import {
  type AccountList,
  type AccountListItem,
  type CallInput,
  createAgentAccount,
  createOrganization,
  createReseller,
  deleteAgentAccount,
  deleteOrganization,
  disableAccount,
  enableAccount,
  getAccount,
  issueRefundToUser,
  listAgentAccounts,
  listOrganizations,
  listPartners,
  listResellers,
  type RouteDefinition,
  type RouteQuery,
  type RouteResponse,
  saveAccountSetting,
  searchAccount,
  searchAccountEnhanced,
  updateOrganization,
} from "@switchboard/api";
import { LIST_DEFAULTS, LOCAL_STORAGE_KEYS } from "@switchboard/core";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey, useAccountState } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

export type { AccountListItem };

/** Page size of every account list (call catalogue §9). */
export const ACCOUNT_PAGE_SIZE = LIST_DEFAULTS.pageSize;

/** A call acting on another account than the one in view: its own targetAccountId. */
export function callFor<T extends RouteDefinition>(
  route: T,
  targetAccountId: number,
  input: CallInput<T> = {},
): Promise<RouteResponse<T>> {
  return apiClient.call(route, {
    ...input,
    query: { ...(input.query ?? {}), targetAccountId } as RouteQuery<T>,
  });
}

/**
 * Super-admin calls (refund, enable, disable, calls for review). The catalogue's clients append the stored
 * token as `adminToken` (§6); the web app keeps tokens out of addresses (issue 32 item 19): its Bearer
 * header is the super admin's session, which the server takes as the admin token when none is given.
 */
export function adminCall<T extends RouteDefinition>(
  route: T,
  input: CallInput<T> = {},
): Promise<RouteResponse<T>> {
  return apiClient.call(route, input);
}

export type ListKind = "partners" | "resellers" | "organizations" | "agents";

const LIST_ROUTES = {
  partners: listPartners,
  resellers: listResellers,
  organizations: listOrganizations,
  agents: listAgentAccounts,
} as const;

/**
 * The first page of the organisations and resellers of the account in view is kept in localStorage
 * (`orgAccountsData`, `resellerAccountsData`, spec §9) and shown at once on the next visit while it reloads.
 */
const CACHE_KEYS: Partial<Record<ListKind, string>> = {
  organizations: LOCAL_STORAGE_KEYS.orgAccountsData,
  resellers: LOCAL_STORAGE_KEYS.resellerAccountsData,
};

type CachedList = { accountId: number; viewingAs: string; list: AccountList };

export function readCachedList(
  kind: ListKind,
  accountId: number,
  viewingAs: string,
): AccountList | undefined {
  const key = CACHE_KEYS[kind];
  if (!key) return undefined;
  try {
    const cached = JSON.parse(window.localStorage.getItem(key) ?? "null") as CachedList | null;
    return cached?.accountId === accountId && cached.viewingAs === viewingAs ? cached.list : undefined;
  } catch {
    return undefined;
  }
}

export function writeCachedList(
  kind: ListKind,
  accountId: number,
  viewingAs: string,
  list: AccountList,
): void {
  const key = CACHE_KEYS[kind];
  if (!key) return;
  try {
    window.localStorage.setItem(key, JSON.stringify({ accountId, viewingAs, list } satisfies CachedList));
  } catch {
    // A full or blocked storage only loses the head start.
  }
}

/** The query key of every account list of the account in view (invalidated after creating or deleting). */
export const ACCOUNT_LISTS_KEY = "account-lists";

/**
 * One page (from 0, 20 accounts) of the partners, resellers, organisations or agent accounts below an
 * account (default the account in view). `active` false includes disabled accounts.
 */
export function useAccountList(
  kind: ListKind,
  page: number,
  options: { active?: boolean; accountId?: number; enabled?: boolean } = {},
) {
  const [accountInView, viewingAs] = useAccountKey();
  const accountId = options.accountId ?? accountInView;
  const active = options.active ?? true;
  const cacheable = page === 0 && active && accountId === accountInView;
  return useQuery<AccountList>({
    queryKey: [ACCOUNT_LISTS_KEY, kind, accountId, viewingAs, page, active],
    queryFn: async ({ signal }) => {
      const input = { query: { page, pageSize: ACCOUNT_PAGE_SIZE, pagination: true, active }, signal };
      const list =
        kind === "partners"
          ? await adminCall(listPartners, input)
          : await callFor(LIST_ROUTES[kind], accountId, input);
      if (cacheable) writeCachedList(kind, accountId, viewingAs, list);
      return list;
    },
    placeholderData: (previous) =>
      previous ?? (cacheable ? readCachedList(kind, accountId, viewingAs) : undefined),
    enabled: options.enabled ?? true,
  });
}

/** Accounts the user can reach whose name, username or e-mail (or, enhanced, phone and ids) match. */
export function useAccountSearch(phrase: string, enhanced: boolean) {
  const [, viewingAs] = useAccountKey();
  const home = useAccountState().view.homeAccount;
  const trimmed = phrase.trim();
  return useQuery({
    queryKey: ["account-search", home?.id ?? null, viewingAs, trimmed, enhanced],
    // The search covers everything below the user's own account, whichever account is in view.
    queryFn: ({ signal }) => {
      const route = enhanced ? searchAccountEnhanced : searchAccount;
      const input = { body: { phrase: trimmed, pageSize: 20 }, signal };
      return home ? callFor(route, home.id, input) : apiClient.call(route, input);
    },
    enabled: trimmed.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** Any account by id (GET /api/v1/account with its targetAccountId): for the info and preview overlays. */
/**
 * Accounts deleted in this tab: never asked for again (their overlays, still closing, would otherwise
 * fetch them and get a 404 the user did not cause).
 */
const deletedAccounts = new Set<number>();

export function useAccountById(accountId: number | null) {
  const [, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["account-by-id", accountId, viewingAs],
    queryFn: ({ signal }) => callFor(getAccount, accountId as number, { query: { viewingAs }, signal }),
    enabled: accountId !== null && !deletedAccounts.has(accountId),
  });
}

/** After a change to the hierarchy: lists, searches and the account views reload. */
export function useInvalidateAccounts() {
  const queryClient = useQueryClient();
  const { refresh } = useAccountState();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: [ACCOUNT_LISTS_KEY] }),
      queryClient.invalidateQueries({ queryKey: ["account-search"] }),
      queryClient.invalidateQueries({ queryKey: ["account-by-id"] }),
      refresh(),
    ]);
  };
}

export function useCreateOrganization() {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: (body: CallInput<typeof createOrganization>["body"]) =>
      apiClient.call(createOrganization, { body }),
    onSuccess: invalidate,
  });
}

export function useCreateReseller() {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: (body: CallInput<typeof createReseller>["body"]) => apiClient.call(createReseller, { body }),
    onSuccess: invalidate,
  });
}

export function useCreateAgentAccount() {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: (body: CallInput<typeof createAgentAccount>["body"]) =>
      apiClient.call(createAgentAccount, { body }),
    onSuccess: invalidate,
  });
}

/** DELETE /api/v2/deleteOrganization {targetOrganizationId}. */
export function useDeleteOrganization() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: (targetOrganizationId: number) =>
      apiClient.call(deleteOrganization, { body: { targetOrganizationId } }),
    onSuccess: (_answer, targetOrganizationId) => {
      // Its observers are still enabled until they render again: drop its query so the refresh below
      // does not ask for it, and the next render keeps it disabled.
      deletedAccounts.add(targetOrganizationId);
      queryClient.removeQueries({ queryKey: ["account-by-id", targetOrganizationId] });
      return invalidate();
    },
  });
}

/** DELETE /api/v2/deleteAccount: an agent account of the organisation in view. */
export function useDeleteAgentAccount() {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: (input: { organizationId: number; agentAccountId: number }) =>
      apiClient.call(deleteAgentAccount, {
        query: { targetOrganizationId: input.organizationId },
        body: { targetAccountId: input.agentAccountId },
      }),
    onSuccess: invalidate,
  });
}

/** Super admin: POST /api/v1/enableAccount or /disableAccount (with reason and details). */
export function useSetAccountEnabled() {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: (input: { username: string; enabled: boolean; reason?: string; details?: string }) =>
      input.enabled
        ? adminCall(enableAccount, { body: { username: input.username } })
        : adminCall(disableAccount, {
            body: {
              username: input.username,
              ...(input.reason ? { reason: input.reason } : {}),
              ...(input.details ? { details: input.details } : {}),
            },
          }),
    onSuccess: invalidate,
  });
}

/** Premium and SMS-enabled flags of an organisation (super admin, partner or reseller above it). */
export function useUpdateOrganizationFlags(organizationId: number) {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: (flags: { premium?: boolean; smsEnabled?: boolean }) =>
      callFor(updateOrganization, organizationId, { body: flags }),
    onSuccess: invalidate,
  });
}

/** A partner-controlled setting of an account (super admin, partner or reseller above it). */
export function useSaveAccountSetting(accountId: number) {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: (settings: Record<string, boolean | null>) =>
      callFor(saveAccountSetting, accountId, { body: { settings } }),
    onSuccess: invalidate,
  });
}

/**
 * Super admin: POST /internal/issueRefundToUser into the wallet of the account with this username. The key
 * is made once per confirmed refund, so a repeated request (a double click, a retry) refunds once.
 */
export function useIssueRefund() {
  const invalidate = useInvalidateAccounts();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CallInput<typeof issueRefundToUser>["body"]) => adminCall(issueRefundToUser, { body }),
    onSuccess: async () => {
      await Promise.all([invalidate(), queryClient.invalidateQueries({ queryKey: ["wallet"] })]);
    },
  });
}
