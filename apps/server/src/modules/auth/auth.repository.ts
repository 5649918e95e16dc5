import { and, asc, count, desc, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { accounts, authTokens, memberships, users, verificationCodes } from "../../db/schema/index.ts";

export type CodePurpose = (typeof verificationCodes.$inferSelect)["purpose"];
export type NewAccount = typeof accounts.$inferInsert;

/** The user of an e-mail address, compared case-insensitively (the unique index is on lower(email)). */
export async function findUserByEmail(db: Database, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

const openToken = (tokenHash: string, kind: "session" | "oneTime") =>
  and(
    eq(authTokens.tokenHash, tokenHash),
    eq(authTokens.kind, kind),
    isNull(authTokens.revokedAt),
    gt(authTokens.expiresAt, new Date()),
  );

export function createAuthRepository(db: Database) {
  return {
    db,

    /**
     * Runs `work` in one transaction (everything commits or nothing). Inside it, touch the database only
     * through `tx` (createAuthRepository(tx), insertAccountIn(tx, ...)): PGlite has one connection.
     */
    transaction<T>(work: (tx: Database) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(tx));
    },

    async countRecentCodes(by: { address?: string; ip?: string }, since: Date): Promise<number> {
      const where = by.address
        ? and(eq(verificationCodes.address, by.address), gt(verificationCodes.createdAt, since))
        : and(eq(verificationCodes.requesterIp, by.ip ?? ""), gt(verificationCodes.createdAt, since));
      const [row] = await db.select({ value: count() }).from(verificationCodes).where(where);
      return row?.value ?? 0;
    },

    /** Stores a new code and retires the earlier open codes of the same address and purpose. */
    async insertCode(code: typeof verificationCodes.$inferInsert): Promise<void> {
      await db
        .update(verificationCodes)
        .set({ consumedAt: sql`now()` })
        .where(
          and(
            eq(verificationCodes.address, code.address),
            eq(verificationCodes.purpose, code.purpose),
            isNull(verificationCodes.consumedAt),
          ),
        );
      await db.insert(verificationCodes).values(code);
    },

    /** The newest open, unexpired code for an address (or a user) and one of the purposes. */
    async findOpenCode(by: { address?: string; userId?: number }, purposes: CodePurpose[]) {
      const [row] = await db
        .select()
        .from(verificationCodes)
        .where(
          and(
            by.address !== undefined
              ? eq(verificationCodes.address, by.address)
              : eq(verificationCodes.userId, by.userId ?? -1),
            inArray(verificationCodes.purpose, purposes),
            isNull(verificationCodes.consumedAt),
            gt(verificationCodes.expiresAt, new Date()),
          ),
        )
        .orderBy(desc(verificationCodes.id))
        .limit(1);
      return row ?? null;
    },

    /** Counts a wrong try; false when the code had no tries left. */
    async countWrongTry(id: number, maxTries: number): Promise<boolean> {
      const rows = await db
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(and(eq(verificationCodes.id, id), lt(verificationCodes.attempts, maxTries)))
        .returning({ id: verificationCodes.id });
      return rows.length > 0;
    },

    /** Marks a code used; false when another request used it first (single use under races). */
    async consumeCode(id: number): Promise<boolean> {
      const rows = await db
        .update(verificationCodes)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
        .returning({ id: verificationCodes.id });
      return rows.length > 0;
    },

    findUserByEmail: (email: string) => findUserByEmail(db, email),

    async findUserByPhone(phoneNumber: string) {
      const [row] = await db.select().from(users).where(eq(users.phoneNumber, phoneNumber)).limit(1);
      return row ?? null;
    },

    async insertUser(user: typeof users.$inferInsert) {
      const [row] = await db.insert(users).values(user).returning();
      if (!row) throw new Error("user insert returned nothing");
      return row;
    },

    /** Holds a transaction-scoped lock on `key`: requests that take the same key run one at a time. */
    async lock(key: string) {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    },

    /** Anonymous sessions allocated from an address since a time (also those since signed up). */
    async countAnonymousSessions(ip: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ value: count() })
        .from(users)
        .where(and(eq(users.createdIp, ip), gt(users.createdAt, since)));
      return row?.value ?? 0;
    },

    /** Deletes (with their tokens) at most `limit` anonymous users created before `before`. */
    async pruneAnonymousUsers(before: Date, limit: number): Promise<number> {
      const stale = db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.temporary, true), lt(users.createdAt, before)))
        .limit(limit);
      const rows = await db.delete(users).where(inArray(users.id, stale)).returning({ id: users.id });
      return rows.length;
    },

    async updateUser(id: number, values: Partial<typeof users.$inferInsert>) {
      await db.update(users).set(values).where(eq(users.id, id));
    },

    /** The account a user signs in to: their oldest membership of a live account. */
    async homeAccountOf(userId: number) {
      const [row] = await db
        .select({ account: accounts, role: memberships.role })
        .from(memberships)
        .innerJoin(accounts, eq(accounts.id, memberships.accountId))
        .where(and(eq(memberships.userId, userId), isNull(accounts.deletedAt)))
        .orderBy(asc(memberships.createdAt), asc(accounts.id))
        .limit(1);
      return row ?? null;
    },

    async usernameTaken(username: string): Promise<boolean> {
      const [row] = await db
        .select({ id: accounts.id })
        .from(accounts)
        .where(sql`lower(${accounts.username}) = ${username.toLowerCase()}`)
        .limit(1);
      return Boolean(row);
    },

    async insertToken(token: typeof authTokens.$inferInsert) {
      const [row] = await db.insert(authTokens).values(token).returning({ id: authTokens.id });
      if (!row) throw new Error("token insert returned nothing");
      return row.id;
    },

    /** The user of an open (unrevoked, unexpired) session token, without touching it. */
    async userOfSession(tokenHash: string) {
      const [row] = await db
        .select({ user: users })
        .from(authTokens)
        .innerJoin(users, eq(users.id, authTokens.userId))
        .where(openToken(tokenHash, "session"))
        .limit(1);
      return row?.user ?? null;
    },

    /**
     * Revokes an open token of a kind and answers it, atomically: a one-time token works once, and only
     * while the session it was made from is open.
     */
    async takeToken(tokenHash: string, kind: "session" | "oneTime") {
      const [row] = await db
        .update(authTokens)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            openToken(tokenHash, kind),
            sql`(${authTokens.sessionId} is null or exists (
              select 1 from ${authTokens} as parent
              where parent.id = ${authTokens.sessionId} and parent.revoked_at is null and parent.expires_at > now()))`,
          ),
        )
        .returning();
      return row ?? null;
    },

    /** Ends a session and the one-time tokens made from it. */
    async revokeSession(id: number) {
      await db
        .update(authTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(or(eq(authTokens.id, id), eq(authTokens.sessionId, id)), isNull(authTokens.revokedAt)));
    },

    async revokeUserTokens(userId: number) {
      await db
        .update(authTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(authTokens.userId, userId), isNull(authTokens.revokedAt)));
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
