import { type ApiToken, MAX_API_TOKENS, TOKEN_MESSAGES } from "@switchboard/api";
import type { Access, AccountRow } from "../../access/access.ts";
import { hashToken, newToken } from "../../access/secrets.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { ApiTokenRow, ApiTokensRepository } from "./api-tokens.repository.ts";

/** Marks API tokens in logs, secret scanners and support tickets. */
const TOKEN_PREFIX = "sbk_";

function organizationIdOf(target: AccountRow): number {
  if (target.accountType === "organization") return target.id;
  if (target.accountType === "agent" && target.organizationId) return target.organizationId;
  throw badRequest(TOKEN_MESSAGES.noOrganization);
}

function toApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    description: row.description,
    type: row.type,
    token: row.hint,
    createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
    createdBy: row.createdBy,
  };
}

/** Organisation API tokens: made (shown once), listed masked with the last use, revoked. */
export function createApiTokensService(deps: { repo: ApiTokensRepository }) {
  const { repo } = deps;
  return {
    async list(access: Access): Promise<ApiToken[]> {
      return (await repo.list(organizationIdOf(access.target))).map(toApiToken);
    },

    async create(access: Access, body: { description: string; type: ApiToken["type"] }) {
      const orgId = organizationIdOf(access.target);
      if ((await repo.count(orgId)) >= MAX_API_TOKENS) throw badRequest(TOKEN_MESSAGES.tooMany);
      const token = `${TOKEN_PREFIX}${newToken()}`;
      const row = await repo.create({
        orgId,
        userId: access.caller.user.id,
        tokenHash: hashToken(token),
        description: body.description,
        type: body.type,
        hint: `${token.slice(0, 7)}…${token.slice(-4)}`,
      });
      const createdBy = access.caller.user.fullName || access.caller.user.email || null;
      return { success: true as const, apiToken: toApiToken({ ...row, createdBy }), token };
    },

    async revoke(access: Access, id: number) {
      if (!(await repo.revoke(organizationIdOf(access.target), id))) throw notFound(TOKEN_MESSAGES.notFound);
      return { success: true as const };
    },
  };
}

export type ApiTokensService = ReturnType<typeof createApiTokensService>;
