import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { apiTokens, authTokens, users } from "../../db/schema/index.ts";

/** An API token never expires by time: it ends when it is revoked. */
const NEVER = new Date("9999-12-31T00:00:00.000Z");

export type ApiTokenRow = typeof apiTokens.$inferSelect & { createdBy: string | null };

export function createApiTokensRepository(db: Database) {
  return {
    async list(orgId: number): Promise<ApiTokenRow[]> {
      const rows = await db
        .select({ token: apiTokens, email: users.email, fullName: users.fullName })
        .from(apiTokens)
        .leftJoin(users, eq(users.id, apiTokens.createdByUserId))
        .where(eq(apiTokens.orgId, orgId))
        .orderBy(desc(apiTokens.id));
      return rows.map((row) => ({ ...row.token, createdBy: row.fullName || row.email || null }));
    },

    async count(orgId: number): Promise<number> {
      return (await db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.orgId, orgId))).length;
    },

    /** The session-like token row (hashed, kind api) and its listing row, together. */
    async create(values: {
      orgId: number;
      userId: number;
      tokenHash: string;
      description: string;
      type: "full" | "readOnly";
      hint: string;
    }): Promise<ApiTokenRow> {
      return db.transaction(async (tx) => {
        const [auth] = await tx
          .insert(authTokens)
          .values({
            userId: values.userId,
            accountId: values.orgId,
            kind: "api",
            tokenHash: values.tokenHash,
            expiresAt: NEVER,
          })
          .returning({ id: authTokens.id });
        if (!auth) throw new Error("api token not inserted");
        const [row] = await tx
          .insert(apiTokens)
          .values({
            orgId: values.orgId,
            authTokenId: auth.id,
            description: values.description,
            type: values.type,
            hint: values.hint,
            createdByUserId: values.userId,
          })
          .returning();
        if (!row) throw new Error("api token not inserted");
        return { ...row, createdBy: null };
      });
    },

    /** Deletes the token (its auth row, and with it the listing row): false when the org has no such token. */
    async revoke(orgId: number, id: number): Promise<boolean> {
      const [row] = await db
        .select({ authTokenId: apiTokens.authTokenId })
        .from(apiTokens)
        .where(and(eq(apiTokens.orgId, orgId), eq(apiTokens.id, id)));
      if (!row) return false;
      await db.delete(authTokens).where(eq(authTokens.id, row.authTokenId));
      return true;
    },
  };
}

export type ApiTokensRepository = ReturnType<typeof createApiTokensRepository>;
