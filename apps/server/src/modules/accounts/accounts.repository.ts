import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { accounts, memberships } from "../../db/schema/index.ts";
import type { AccountRow } from "../auth/access.ts";
import { ancestorsUnder, usernameBase } from "./hierarchy.ts";

export type NewAccountInput = Omit<
  typeof accounts.$inferInsert,
  "id" | "parentId" | "partnerId" | "resellerId" | "organizationId" | "username"
> & { username?: string; usernameFrom: string };

export function createAccountsRepository(db: Database) {
  async function usernameFree(username: string): Promise<boolean> {
    const rows = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.username, username))
      .limit(1);
    return rows.length === 0;
  }

  async function uniqueUsername(source: string): Promise<string> {
    const base = usernameBase(source);
    if (await usernameFree(base)) return base;
    for (;;) {
      const candidate = `${base.slice(0, 25)}-${randomBytes(2).toString("hex")}`;
      if (await usernameFree(candidate)) return candidate;
    }
  }

  return {
    uniqueUsername,

    /** Inserts an account under `parent` with its ancestor ids; an organisation is its own organisation. */
    async insertAccount(parent: AccountRow | null, input: NewAccountInput, owner?: { userId: number }) {
      const { usernameFrom, username, ...values } = input;
      // Outside the transaction: PGlite has one connection, and the transaction holds it.
      const chosen = username ?? (await uniqueUsername(usernameFrom));
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(accounts)
          .values({ ...values, ...ancestorsUnder(parent), username: chosen })
          .returning();
        if (!row) throw new Error("account insert returned nothing");
        let account = row;
        if (row.accountType === "organization") {
          const [updated] = await tx
            .update(accounts)
            .set({ organizationId: row.id })
            .where(eq(accounts.id, row.id))
            .returning();
          account = updated ?? row;
        }
        if (owner)
          await tx.insert(memberships).values({ userId: owner.userId, accountId: account.id, role: "owner" });
        return account;
      });
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
