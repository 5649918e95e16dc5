import {
  ID_MESSAGE,
  idSchema,
  isWriteRoute,
  type RouteDefinition,
  TOKEN_MESSAGES,
  WS_BEARER_PROTOCOL,
} from "@switchboard/api";
import {
  type AccountRole,
  derivePermissions,
  deriveRole,
  isActingAsHigherRole,
  type PartnerSettings,
  type PermissionFlag,
  type Permissions,
  type RealRank,
  restoreViewingAs,
  TEST_ACCOUNT_USERNAMES,
  type ViewingAs,
} from "@switchboard/core";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../api-error.ts";
import type { Database } from "../db/client.ts";
import { createNoticeCache } from "../db/notice-cache.ts";
import { accounts, apiTokens, authTokens, memberships, users } from "../db/schema/index.ts";
import { hashToken } from "./secrets.ts";

export type AccountRow = typeof accounts.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export type Caller = {
  tokenId: number;
  user: UserRow;
  /** The account the token signed in to (null for anonymous sessions of users without an account). */
  account: AccountRow | null;
  /** The user's membership role on that account. */
  role: "owner" | "admin" | null;
  /**
   * Set when the caller is an organisation API token: it acts for that organisation only, as an admin of
   * it (never as its creator's higher role), and never on routes that are `sessionOnly`.
   */
  apiToken?: { id: number; type: "full" | "readOnly" };
};

/** What a handler of a route that needs a token receives: who calls, on which account, with which flags. */
export type Access = {
  caller: Caller;
  target: AccountRow;
  rank: RealRank & { role: AccountRole };
  viewingAs: ViewingAs;
  permissions: Permissions;
};

/** How often an API token's last use is written (at most). */
const API_TOKEN_TOUCH_MS = 60_000;

/** A resolved session and when its token expires. */
type KnownCaller = { caller: Caller; expiresAt: number };

/**
 * The channel migration 0010's triggers notify whenever tokens, users, memberships or accounts change:
 * every instance then forgets the sessions it resolved.
 */
export const ACCESS_CHANGED_CHANNEL = "switchboard_access_changed";
/** The tables a resolved session is read from. */
export const ACCESS_TABLES = new Set(["auth_tokens", "users", "memberships", "accounts"]);

export const MESSAGES = {
  noToken: "No auth token provided",
  badToken: "Could not authenticate with token",
  notFound: "Account not found",
  disabled: "This account is disabled.",
  forbidden: "You do not have permission to do this.",
  adminOnly: "Only a super admin can do this.",
  noTarget: "targetAccountId is required",
} as const;

/**
 * The token of a call: query `token` (as the catalogue sends it), `Authorization: Bearer`, or — for a
 * browser's WebSocket, which cannot send headers — the subprotocol after WS_BEARER_PROTOCOL.
 */
export function tokenOf(request: FastifyRequest, queryKey = "token"): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.[queryKey];
  if (typeof fromQuery === "string" && fromQuery) return fromQuery;
  if (queryKey !== "token") return undefined;
  const header = request.headers.authorization;
  if (header?.startsWith("Bearer ")) return header.slice(7).trim() || undefined;
  const protocols = request.headers["sec-websocket-protocol"];
  if (typeof protocols === "string") {
    const offered = protocols.split(",").map((part) => part.trim());
    const at = offered.indexOf(WS_BEARER_PROTOCOL);
    if (at >= 0) return offered[at + 1] || undefined;
  }
  return undefined;
}

/**
 * Is `target` the caller's account or below it? Super admin > partner > reseller > organisation > agent.
 * The ancestor ids on each account row make this a comparison, not a walk.
 */
export function canReach(
  caller: { superAdmin: boolean; account: AccountRow | null },
  target: AccountRow,
): boolean {
  if (caller.superAdmin) return true;
  const home = caller.account;
  if (!home) return false;
  if (home.id === target.id) return true;
  switch (home.accountType) {
    case "partner":
      return target.partnerId === home.id;
    case "reseller":
      return target.resellerId === home.id;
    case "organization":
      return target.organizationId === home.id;
    default:
      return false;
  }
}

/** Is `account` the `root` account itself or below it? (No super-admin shortcut: a position in the tree.) */
export function isWithin(root: AccountRow, account: AccountRow): boolean {
  return canReach({ superAdmin: false, account: root }, account);
}

/**
 * Does the caller act above `account` (default the target)? Placed above it (isAbove) and acting as that
 * higher role: not viewing as owner or admin.
 */
export function actsAbove(access: Access, account: AccountRow = access.target): boolean {
  return isActingAsHigherRole(access.rank, access.viewingAs) && isAbove(access.caller, account);
}

/** Is the caller placed above `account`: a super admin, or a user of a partner or reseller over it? */
export function isAbove(caller: Pick<Caller, "user" | "account">, account: AccountRow): boolean {
  if (caller.user.superAdmin) return true;
  const home = caller.account;
  if (!home || home.id === account.id) return false;
  return (home.accountType === "partner" || home.accountType === "reseller") && isWithin(home, account);
}

/** A live account by id: deleted ones are gone, disabled ones are answered (flagged by disabled_at). */
export async function findLiveAccount(db: Database, id: number): Promise<AccountRow | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt)))
    .limit(1);
  return row ?? null;
}

export function createAccessResolver(db: Database) {
  // The token's session with its user, account and membership: one prepared statement (a named statement
  // on PostgreSQL, planned once per connection), since every call that needs a token runs it.
  const callerQuery = db
    .select({
      token: authTokens,
      user: users,
      account: accounts,
      role: memberships.role,
      apiToken: { id: apiTokens.id, type: apiTokens.type },
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .leftJoin(accounts, eq(accounts.id, authTokens.accountId))
    .leftJoin(
      memberships,
      and(eq(memberships.userId, users.id), eq(memberships.accountId, authTokens.accountId)),
    )
    .leftJoin(apiTokens, eq(apiTokens.authTokenId, authTokens.id))
    .where(
      and(
        eq(authTokens.tokenHash, sql.placeholder("tokenHash")),
        inArray(authTokens.kind, ["session", "api"]),
        isNull(authTokens.revokedAt),
        gt(authTokens.expiresAt, sql.placeholder("now")),
      ),
    )
    .limit(1)
    .prepare("access_resolve_caller");

  async function readCaller(tokenHash: string): Promise<KnownCaller | null> {
    const [row] = await callerQuery.execute({ tokenHash, now: new Date().toISOString() });
    if (!row) return null;
    if (row.token.kind === "api") {
      // An organisation's API token: that organisation, as an admin of it, whoever made it.
      if (!row.apiToken || row.account?.accountType !== "organization" || row.account.deletedAt) return null;
      return {
        caller: {
          tokenId: row.token.id,
          user: { ...row.user, superAdmin: false },
          account: row.account,
          role: "admin",
          apiToken: { id: row.apiToken.id, type: row.apiToken.type },
        },
        expiresAt: row.token.expiresAt.getTime(),
      };
    }
    // A membership that was removed ends the access its tokens gave, unless the user is a super admin.
    if (row.account && !row.role && !row.user.superAdmin) return null;
    if (row.account?.deletedAt) return null;
    return {
      caller: { tokenId: row.token.id, user: row.user, account: row.account, role: row.role },
      expiresAt: row.token.expiresAt.getTime(),
    };
  }

  // Every call with a token resolves it: the answer is kept until tokens, users, memberships or accounts
  // change (see ACCESS_CHANGED_CHANNEL). Unknown tokens are not kept, so guesses cannot crowd out sessions.
  const callerCache = createNoticeCache<KnownCaller | null>({
    maxEntries: 50_000,
    keep: (known) => known !== null,
  });

  async function resolveCaller(token: string): Promise<Caller | null> {
    const tokenHash = hashToken(token);
    const known = await callerCache.get(0, tokenHash, () => readCaller(tokenHash));
    if (!known || known.expiresAt <= Date.now()) return null;
    return known.caller;
  }

  const loadAccount = (id: number) => findLiveAccount(db, id);

  // An API token's last use, written at most once a minute per token by this instance (api_tokens is not
  // one of the tables whose change clears resolved callers).
  const touched = new Map<number, number>();
  async function touchApiToken(id: number): Promise<void> {
    const at = Date.now();
    if (at - (touched.get(id) ?? 0) < API_TOKEN_TOUCH_MS) return;
    touched.set(id, at);
    if (touched.size > 10_000) touched.clear();
    await db
      .update(apiTokens)
      .set({ lastUsedAt: new Date(at) })
      .where(eq(apiTokens.id, id));
  }

  async function settingsFor(target: AccountRow): Promise<PartnerSettings> {
    if (target.accountType !== "agent" || !target.organizationId) return target.settings as PartnerSettings;
    const organization = await loadAccount(target.organizationId);
    return (organization?.settings ?? {}) as PartnerSettings;
  }

  /** The one authorisation step every route that needs a token goes through. */
  async function authorize(request: FastifyRequest, route: RouteDefinition): Promise<Access> {
    const token =
      route.auth === "adminToken" ? (tokenOf(request, "adminToken") ?? tokenOf(request)) : tokenOf(request);
    if (!token) throw new ApiError(401, MESSAGES.noToken);
    const caller = await resolveCaller(token);
    if (!caller) throw new ApiError(401, MESSAGES.badToken);
    if (route.auth === "adminToken" && !caller.user.superAdmin) throw new ApiError(403, MESSAGES.adminOnly);
    if (caller.apiToken) {
      if (route.sessionOnly) throw new ApiError(403, TOKEN_MESSAGES.sessionOnly);
      if (caller.apiToken.type === "readOnly" && isWriteRoute(route))
        throw new ApiError(403, TOKEN_MESSAGES.readOnly);
      await touchApiToken(caller.apiToken.id);
    }
    if (caller.account?.disabledAt && !caller.user.superAdmin) throw new ApiError(403, MESSAGES.disabled);

    const query = (request.query ?? {}) as Record<string, unknown>;
    const requested = query.targetAccountId;
    let targetId = caller.account?.id;
    if (requested !== undefined && requested !== "") {
      const parsed = idSchema.safeParse(requested);
      if (!parsed.success) throw new ApiError(400, `targetAccountId: ${ID_MESSAGE}`);
      targetId = parsed.data;
    }
    if (targetId === undefined) throw new ApiError(400, MESSAGES.noTarget);
    const target = targetId === caller.account?.id ? caller.account : await loadAccount(targetId);
    // Unknown and unreachable look the same: no caller learns that another tenant's account exists.
    if (!target || !canReach({ superAdmin: caller.user.superAdmin, account: caller.account }, target)) {
      throw new ApiError(404, MESSAGES.notFound);
    }
    if (target.disabledAt && !caller.user.superAdmin) throw new ApiError(403, MESSAGES.disabled);

    const role = caller.account ? deriveRole(toRoleSubject(caller.account)) : "organization";
    // The owner's flags belong to an organisation's owner: an agent account's own "owner" is not one.
    const isOwner = caller.role === "owner" && caller.account?.accountType === "organization";
    const rank = { superAdmin: caller.user.superAdmin, role, isOwner };
    const viewingAs = restoreViewingAs(query.viewingAs, rank);
    const permissions = await permissionsOn({ caller, rank, viewingAs }, target);
    if (route.permission && !permissions[route.permission]) throw new ApiError(403, MESSAGES.forbidden);
    return { caller, target, rank, viewingAs, permissions };
  }

  /** The flags the caller holds on an account (the target, or one a handler resolved below it). */
  async function permissionsOn(
    access: Pick<Access, "caller" | "rank" | "viewingAs">,
    account: AccountRow,
  ): Promise<Permissions> {
    const { caller } = access;
    return derivePermissions({
      rank: access.rank,
      viewingAs: access.viewingAs,
      isTestAccount: caller.account ? TEST_ACCOUNT_USERNAMES.includes(caller.account.username) : false,
      isOwnOrganization: caller.role === "owner" && account.organizationId === caller.account?.id,
      settings: await settingsFor(account),
    });
  }

  /**
   * Refuses unless the caller holds `flag` on `account` — for a handler that acts on an account it resolved
   * below the target (the route's flag was checked on the target itself).
   */
  async function requirePermission(access: Access, account: AccountRow, flag: PermissionFlag): Promise<void> {
    if (account.id === access.target.id) {
      if (!access.permissions[flag]) throw new ApiError(403, MESSAGES.forbidden);
      return;
    }
    if (!(await permissionsOn(access, account))[flag]) throw new ApiError(403, MESSAGES.forbidden);
  }

  return { authorize, resolveCaller, loadAccount, permissionsOn, requirePermission, callerCache };
}

export function toRoleSubject(account: AccountRow) {
  return {
    accountType: account.accountType,
    organizationId: account.organizationId,
    partnerId: account.partnerId,
    resellerId: account.resellerId,
    timestamp: account.createdAt.getTime(),
  };
}

export type AccessResolver = ReturnType<typeof createAccessResolver>;
