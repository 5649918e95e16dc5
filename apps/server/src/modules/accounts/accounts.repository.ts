import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { AccountRow } from "../../access/access.ts";
import type { Database } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { jsonbMerge } from "../../db/jsonb.ts";
import { accounts, memberships } from "../../db/schema/index.ts";
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
      .where(sql`lower(${accounts.username}) = ${username.toLowerCase()}`)
      .limit(1);
    return rows.length === 0;
  }

  /** A live (not deleted) account by username, whatever its case. */
  async function findByUsername(username: string): Promise<AccountRow | null> {
    const [row] = await db
      .select()
      .from(accounts)
      .where(and(sql`lower(${accounts.username}) = ${username.toLowerCase()}`, isNull(accounts.deletedAt)))
      .limit(1);
    return row ?? null;
  }

  async function update(id: number, values: PgUpdateSetSource<typeof accounts>): Promise<AccountRow> {
    const [row] = await db.update(accounts).set(values).where(eq(accounts.id, id)).returning();
    if (!row) throw new Error(`account ${id} vanished`);
    return row;
  }

  return {
    usernameFree,
    findByUsername,
    update,
    /** Columns and details keys in one statement; details keys are merged, `removeDetails` dropped. */
    async updateFields(
      id: number,
      columns: Partial<typeof accounts.$inferInsert>,
      details: Record<string, unknown> = {},
      removeDetails: readonly string[] = [],
    ): Promise<AccountRow> {
      const touchesDetails = Object.keys(details).length > 0 || removeDetails.length > 0;
      if (!touchesDetails && Object.keys(columns).length === 0) {
        const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
        if (!row) throw new Error(`account ${id} vanished`);
        return row;
      }
      return update(id, {
        ...columns,
        ...(touchesDetails ? { details: jsonbMerge(accounts.details, details, removeDetails) } : {}),
      });
    },
    /** Merges settings keys and removes others atomically; answers the settings as stored. */
    async mergeSettings(id: number, patch: Record<string, unknown>, remove: readonly string[]) {
      const row = await update(id, { settings: jsonbMerge(accounts.settings, patch, remove) });
      return row.settings;
    },
    /** False when another account holds the username (any case). */
    async setUsername(id: number, username: string): Promise<AccountRow | null> {
      try {
        return await update(id, { username });
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    /** The settings of the live (not deleted) accounts among `ids`, by id. */
    async settingsOf(ids: readonly number[]): Promise<Map<number, Record<string, unknown>>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: accounts.id, settings: accounts.settings })
        .from(accounts)
        .where(and(inArray(accounts.id, [...ids]), isNull(accounts.deletedAt)));
      return new Map(rows.map((row) => [row.id, row.settings]));
    },
    /** Inserts an account under `parent` with its ancestor ids; an organisation is its own organisation. */
    async insertAccount(parent: AccountRow | null, input: NewAccountInput, owner?: { userId: number }) {
      return db.transaction((tx) => insertAccountIn(tx, parent, input, owner));
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;

/** Tries of a free username before giving up (each try after the first adds a random suffix). */
const USERNAME_TRIES = 20;

/**
 * Inserts an account under `parent` (with its owner's membership) on `tx`, a transaction the caller holds:
 * sign-up makes the user, the organisation and the membership in one transaction. Without an explicit
 * username, the first free one of the name's base and suffixed variants is taken with ON CONFLICT DO
 * NOTHING, so concurrent sign-ups of one business name each get their own username instead of a
 * duplicate-key error (a check-then-insert races).
 */
export async function insertAccountIn(
  tx: Database,
  parent: AccountRow | null,
  input: NewAccountInput,
  owner?: { userId: number },
): Promise<AccountRow> {
  const { usernameFrom, username, ...values } = input;
  const base = usernameBase(usernameFrom);
  let row: AccountRow | undefined;
  for (let attempt = 0; !row; attempt++) {
    if (username === undefined && attempt >= USERNAME_TRIES) throw new Error("no free username found");
    const candidate =
      username ?? (attempt === 0 ? base : `${base.slice(0, 25)}-${randomBytes(2).toString("hex")}`);
    const insert = tx.insert(accounts).values({ ...values, ...ancestorsUnder(parent), username: candidate });
    // An explicit username that is taken fails with the unique violation the callers turn into a 409.
    [row] =
      username === undefined ? await insert.onConflictDoNothing().returning() : await insert.returning();
    if (!row && username !== undefined) throw new Error("account insert returned nothing");
  }
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
}
