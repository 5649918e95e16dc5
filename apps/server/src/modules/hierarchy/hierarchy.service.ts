import {
  ACCOUNT_MESSAGES,
  type AccountList,
  type AccountListItem,
  APPLIED_ORGANIZATION_FILTERS,
  HIERARCHY_MESSAGES,
  LIST_UNPAGED_MAX,
  type OrganizationFilters,
} from "@switchboard/api";
import {
  type Access,
  type AccessResolver,
  type AccountRow,
  isWithin,
  MESSAGES,
} from "../../access/access.ts";
import { ApiError, badRequest, conflict, forbidden, notFound } from "../../api-error.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import {
  type AccountsRepository,
  canBeParent,
  displayNameOf,
  RESERVED_USERNAMES,
  storedPhoneNumber,
  toApiAccount,
} from "../accounts/index.ts";
import type { AdminUsersService } from "../admin-users/index.ts";
import type { AccountQuery, HierarchyRepository } from "./hierarchy.repository.ts";

type AccountType = AccountRow["accountType"];

/** Type-specific display name of §3 list items: orgName for organisations, resellerName for resellers. */
const LIST_NAME_KEY: Partial<Record<AccountType, string>> = {
  organization: "orgName",
  reseller: "resellerName",
  partner: "partnerName",
  agent: "agentName",
};

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value : null);

export function toListItem(row: AccountRow): AccountListItem {
  const key = LIST_NAME_KEY[row.accountType];
  return {
    ...toApiAccount(row),
    displayName: (key && text(row.details[key])) || displayNameOf(row),
    type: row.accountType,
    agentName: text(row.details.agentName),
    accountName: text(row.details.accountName),
  };
}

export type ListOptions = { page: number; pageSize: number; pagination: boolean; active: boolean };

type Deps = {
  repo: HierarchyRepository;
  accounts: AccountsRepository;
  access: AccessResolver;
  adminUsers: AdminUsersService;
};

export function createHierarchyService(deps: Deps) {
  const { repo } = deps;

  /**
   * An account named by id in a request, resolved inside the target's subtree: unknown and out-of-reach ids
   * answer the same 404, so no caller learns of another tenant's accounts.
   */
  async function resolveWithin(access: Access, id: number, type?: AccountType): Promise<AccountRow> {
    const account = id === access.target.id ? access.target : await repo.find(id);
    if (!account || !isWithin(access.target, account)) throw notFound(MESSAGES.notFound);
    if (account.disabledAt && !access.caller.user.superAdmin) throw forbidden(MESSAGES.disabled);
    if (type && account.accountType !== type) throw badRequest(ACCOUNT_MESSAGES.typeMismatch);
    return account;
  }

  async function page(
    query: Omit<AccountQuery, "offset" | "limit">,
    options: ListOptions,
  ): Promise<AccountList> {
    const limit = options.pagination ? options.pageSize : LIST_UNPAGED_MAX;
    const offset = options.pagination ? options.page * options.pageSize : 0;
    const { rows, total } = await repo.list({ ...query, offset, limit });
    return {
      success: true,
      accounts: rows.map(toListItem),
      totalAccounts: total,
      page: options.pagination ? options.page : 0,
      pageSize: limit,
    };
  }

  async function checkUsername(username: string | undefined): Promise<void> {
    if (!username) return;
    if (RESERVED_USERNAMES.has(username)) throw badRequest(ACCOUNT_MESSAGES.usernameReserved);
    if (!(await deps.accounts.usernameFree(username))) throw conflict(ACCOUNT_MESSAGES.usernameTaken);
  }

  async function insert(
    parent: AccountRow,
    input: Parameters<AccountsRepository["insertAccount"]>[1],
  ): Promise<AccountRow> {
    if (!canBeParent(input.accountType, parent)) throw badRequest(ACCOUNT_MESSAGES.typeMismatch);
    try {
      return await deps.accounts.insertAccount(parent, input);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(ACCOUNT_MESSAGES.usernameTaken);
      throw error;
    }
  }

  /** Creates an organisation or reseller; with an e-mail, its owner is invited. */
  async function createManaged(
    access: Access,
    parent: AccountRow,
    input: {
      accountType: "organization" | "reseller";
      name: string;
      email?: string;
      redirectUrl?: string;
      phoneNumber?: string;
      externalAccountId?: string;
      externalBillingId?: string;
    },
  ) {
    // Checked before anything is created: a refused link must not leave a half-made account. The new
    // account's partner is the parent's (or the parent itself).
    const redirect = input.email ? await deps.adminUsers.checkRedirect(parent, input.redirectUrl) : null;
    const nameKey = input.accountType === "organization" ? "orgName" : "resellerName";
    const account = await insert(parent, {
      accountType: input.accountType,
      usernameFrom: input.name,
      email: input.email ?? null,
      phoneNumber: input.phoneNumber ? storedPhoneNumber(input.phoneNumber) : null,
      externalAccountId: input.externalAccountId || null,
      externalBillingId: input.externalBillingId || null,
      details: { [nameKey]: input.name, name: input.name },
    });
    if (input.email && redirect) {
      const caller = access.caller.user;
      await deps.adminUsers.invite(account, {
        email: input.email,
        isOwner: true,
        redirect,
        invitedBy: caller.fullName ?? caller.email,
      });
    }
    return { success: true as const, account: toListItem(account) };
  }

  return {
    resolveWithin,

    async createOrganization(
      access: Access,
      input: Omit<Parameters<typeof createManaged>[2], "accountType"> & { targetResellerId?: number },
    ) {
      const parent = input.targetResellerId
        ? await resolveWithin(access, input.targetResellerId, "reseller")
        : access.target;
      if (parent.accountType !== "partner" && parent.accountType !== "reseller")
        throw badRequest(HIERARCHY_MESSAGES.organizationParent);
      return createManaged(access, parent, { ...input, accountType: "organization" });
    },

    async createReseller(
      access: Access,
      input: Omit<Parameters<typeof createManaged>[2], "accountType"> & { targetPartnerId?: number },
    ) {
      const parent = input.targetPartnerId
        ? await resolveWithin(access, input.targetPartnerId, "partner")
        : access.target;
      if (parent.accountType !== "partner") throw badRequest(HIERARCHY_MESSAGES.resellerParent);
      return createManaged(access, parent, { ...input, accountType: "reseller" });
    },

    async createAgent(
      access: Access,
      input: {
        name: string;
        accountName?: string;
        username?: string;
        email?: string;
        phoneNumber?: string;
        externalAccountId?: string;
      },
    ) {
      const organization = access.target;
      if (organization.accountType !== "organization") throw badRequest(ACCOUNT_MESSAGES.typeMismatch);
      await checkUsername(input.username);
      const account = await insert(organization, {
        accountType: "agent",
        usernameFrom: input.name,
        ...(input.username ? { username: input.username } : {}),
        email: input.email ?? null,
        phoneNumber: input.phoneNumber ? storedPhoneNumber(input.phoneNumber) : null,
        externalAccountId: input.externalAccountId || null,
        details: {
          agentName: input.name,
          name: input.name,
          ...(input.accountName ? { accountName: input.accountName } : {}),
        },
      });
      return { success: true as const, account: toListItem(account) };
    },

    async deleteOrganization(access: Access, organizationId: number) {
      const organization = await resolveWithin(access, organizationId, "organization");
      await deps.access.requirePermission(access, organization, "canDeleteOrg");
      await repo.deleteOrganization(organization.id);
      return { success: true as const, message: HIERARCHY_MESSAGES.organizationDeleted };
    },

    async deleteAgent(access: Access, organizationId: number | undefined, accountId: number) {
      const organization = organizationId
        ? await resolveWithin(access, organizationId, "organization")
        : access.target;
      if (organization.accountType !== "organization") throw badRequest(ACCOUNT_MESSAGES.typeMismatch);
      const account = await repo.find(accountId);
      if (account?.accountType !== "agent" || account.organizationId !== organization.id)
        throw notFound(MESSAGES.notFound);
      await deps.access.requirePermission(access, organization, "canAddAgents");
      await repo.deleteAccount(account.id);
      return { success: true as const, message: HIERARCHY_MESSAGES.accountDeleted };
    },

    /**
     * Accounts of some types below the target. A super admin acting as such on their own account lists
     * every account of those types, whichever partner it belongs to (Accounts → Organizations shows all).
     */
    list(access: Access, types: readonly AccountType[], options: ListOptions) {
      const everything =
        access.caller.user.superAdmin &&
        access.viewingAs === "superAdmin" &&
        access.target.id === access.caller.account?.id;
      return page(
        { scope: everything ? "everything" : { root: access.target }, types, activeOnly: options.active },
        options,
      );
    },

    /** Every partner (super admin). */
    listPartners(options: ListOptions) {
      return page({ scope: "everything", types: ["partner"], activeOnly: options.active }, options);
    },

    async searchOrganizations(access: Access, filters: OrganizationFilters, options: ListOptions) {
      const applied = new Set<string>(APPLIED_ORGANIZATION_FILTERS);
      const ignoredFilters = Object.entries(filters)
        .filter(([key, value]) => value !== undefined && !applied.has(key))
        .map(([key]) => key);
      const result = await page(
        {
          scope: { root: access.target },
          types: ["organization"],
          activeOnly: options.active,
          ...(filters.phrase ? { phrase: { text: filters.phrase, enhanced: false } } : {}),
          where: repo.filters(filters),
        },
        options,
      );
      return { ...result, ignoredFilters };
    },

    /**
     * The account switcher's search: accounts the caller can reach — its own account and everything below
     * it, or every account for a super admin (disabled ones only for a super admin, who can enable them).
     */
    async search(access: Access, phrase: string, pageSize: number, enhanced: boolean) {
      const { caller } = access;
      const superAdmin = caller.user.superAdmin;
      if (!superAdmin && !caller.account) throw new ApiError(404, MESSAGES.notFound);
      const { success, accounts, totalAccounts } = await page(
        {
          scope: superAdmin || !caller.account ? "everything" : { root: caller.account, includeRoot: true },
          activeOnly: !superAdmin,
          phrase: { text: phrase, enhanced },
        },
        { page: 0, pageSize, pagination: true, active: !superAdmin },
      );
      return { success, accounts, totalAccounts };
    },
  };
}

export type HierarchyService = ReturnType<typeof createHierarchyService>;
