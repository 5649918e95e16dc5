import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { authTokens, memberships, users } from "../../db/schema/index.ts";
import { findUserByEmail } from "../auth/index.ts";

export type Role = "owner" | "admin";
export type MemberRow = {
  user: typeof users.$inferSelect;
  role: Role;
  joinedAt: Date;
  /** Has the person ever had a session (signed in)? Revoked and expired sessions count: rows stay. */
  signedIn: boolean;
};

/** The columns of a member row: the user, the membership, and whether the user ever signed in. */
const memberColumns = {
  user: users,
  role: memberships.role,
  joinedAt: memberships.createdAt,
  signedIn: sql<boolean>`exists (select 1 from ${authTokens} where ${authTokens.userId} = ${users.id} and ${authTokens.kind} = 'session')`,
};

export function createAdminUsersRepository(db: Database) {
  async function findMember(accountId: number, userId: number): Promise<MemberRow | null> {
    const [row] = await db
      .select(memberColumns)
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)))
      .limit(1);
    return row ?? null;
  }

  return {
    findMember,

    /** The user with this e-mail, created (unverified, no session yet) when there is none. */
    async userForEmail(email: string) {
      const existing = await findUserByEmail(db, email);
      if (existing) return existing;
      try {
        const [row] = await db.insert(users).values({ email }).returning();
        if (!row) throw new Error("user insert returned nothing");
        return row;
      } catch (error) {
        // Invited twice at once: the other request created the user.
        const raced = isUniqueViolation(error) ? await findUserByEmail(db, email) : null;
        if (raced) return raced;
        throw error;
      }
    },

    /**
     * Adds the user to the account with `role`, or raises an admin to owner; never lowers an owner.
     * Answers the membership as it is afterwards.
     */
    async addMember(accountId: number, userId: number, role: Role): Promise<MemberRow> {
      await db
        .insert(memberships)
        .values({ userId, accountId, role })
        .onConflictDoUpdate({
          target: [memberships.userId, memberships.accountId],
          set: { role: sql`case when ${memberships.role} = 'owner' then 'owner' else excluded.role end` },
        });
      const member = await findMember(accountId, userId);
      if (!member) throw new Error("membership vanished");
      return member;
    },

    async listMembers(accountId: number): Promise<MemberRow[]> {
      return db
        .select(memberColumns)
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(memberships.accountId, accountId))
        .orderBy(desc(sql`${memberships.role} = 'owner'`), asc(memberships.createdAt), asc(users.id));
    },

    /**
     * Removes a membership and revokes the user's tokens on that account. An owner is removed only while
     * another owner remains (owners are locked first, so two removals cannot both take the last two).
     */
    async removeMember(accountId: number, userId: number): Promise<"removed" | "lastOwner" | "missing"> {
      return db.transaction(async (tx) => {
        const owners = await tx
          .select({ userId: memberships.userId })
          .from(memberships)
          .where(and(eq(memberships.accountId, accountId), eq(memberships.role, "owner")))
          .for("update");
        const [member] = await tx
          .select({ role: memberships.role })
          .from(memberships)
          .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)))
          .for("update");
        if (!member) return "missing";
        if (member.role === "owner" && owners.length <= 1) return "lastOwner";
        await tx
          .delete(memberships)
          .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)));
        await tx
          .update(authTokens)
          .set({ revokedAt: sql`now()` })
          .where(
            and(
              eq(authTokens.userId, userId),
              eq(authTokens.accountId, accountId),
              sql`${authTokens.revokedAt} is null`,
            ),
          );
        return "removed";
      });
    },

    async insertOneTimeToken(values: {
      userId: number;
      accountId: number;
      tokenHash: string;
      expiresAt: Date;
    }) {
      await db.insert(authTokens).values({ ...values, kind: "oneTime" });
    },
  };
}

export type AdminUsersRepository = ReturnType<typeof createAdminUsersRepository>;
