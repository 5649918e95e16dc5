import { and, count, desc, eq, gte, ilike, inArray, isNull, lte, ne, or, type SQL, sql } from "drizzle-orm";
import { type AccountRow, findLiveAccount } from "../../access/access.ts";
import type { Database } from "../../db/client.ts";
import { containsPattern } from "../../db/jsonb.ts";
import { accounts, memberships, users } from "../../db/schema/index.ts";

type AccountType = AccountRow["accountType"];

/** Details keys that hold a name a person would search for. */
const NAME_KEYS = [
  "displayName",
  "orgName",
  "resellerName",
  "partnerName",
  "agentName",
  "accountName",
  "name",
  "fullName",
];

/**
 * Which accounts a query covers: those below `root` (by the indexed ancestor-id columns), optionally `root`
 * itself; or, for a super admin's search, every account.
 */
export type Scope = { root: AccountRow; includeRoot?: boolean } | "everything";

export type AccountQuery = {
  scope: Scope;
  types?: readonly AccountType[];
  /** Leave disabled accounts out. */
  activeOnly: boolean;
  phrase?: { text: string; enhanced: boolean };
  /** Further conditions (search filters) built by `filters`. */
  where?: SQL[];
  offset: number;
  limit: number;
};

/** Accounts strictly below `root`; null when nothing can be below it (an agent account). */
function below(root: AccountRow): SQL | null {
  switch (root.accountType) {
    case "partner":
      return eq(accounts.partnerId, root.id);
    case "reseller":
      return eq(accounts.resellerId, root.id);
    case "organization":
      return and(eq(accounts.organizationId, root.id), ne(accounts.id, root.id)) as SQL;
    default:
      return null;
  }
}

function phraseMatch(text: string, enhanced: boolean): SQL {
  const pattern = containsPattern(text);
  const basic: SQL[] = [
    ilike(accounts.username, pattern),
    ilike(accounts.email, pattern),
    ...NAME_KEYS.map((key) => sql`(${accounts.details} ->> ${key}) ilike ${pattern}`),
  ];
  if (!enhanced) return or(...basic) as SQL;
  const extra: SQL[] = [
    ilike(accounts.phoneNumber, pattern),
    ilike(accounts.switchboardPhoneNumber, pattern),
    ilike(accounts.externalAccountId, pattern),
    ilike(accounts.externalBillingId, pattern),
    sql`exists (select 1 from ${memberships} inner join ${users} on ${users.id} = ${memberships.userId}
        where ${memberships.accountId} = ${accounts.id}
          and (${users.email} ilike ${pattern} or ${users.fullName} ilike ${pattern}))`,
  ];
  const digits = text.replace(/[^0-9]/g, "");
  if (digits.length >= 4)
    extra.push(
      sql`regexp_replace(coalesce(${accounts.phoneNumber}, ''), '[^0-9]', '', 'g') like ${`%${digits}%`}`,
    );
  if (/^[0-9]{1,9}$/.test(text)) extra.push(eq(accounts.id, Number(text)));
  return or(...basic, ...extra) as SQL;
}

export function createHierarchyRepository(db: Database) {
  return {
    /** A live account by id (deleted ones are gone; disabled ones are answered, flagged). */
    find: (id: number) => findLiveAccount(db, id),

    /** One page of accounts, newest first, and how many match in all. */
    async list(query: AccountQuery): Promise<{ rows: AccountRow[]; total: number }> {
      const conditions: (SQL | undefined)[] = [isNull(accounts.deletedAt)];
      if (query.scope !== "everything") {
        const under = below(query.scope.root);
        const scope = query.scope.includeRoot
          ? under
            ? or(eq(accounts.id, query.scope.root.id), under)
            : eq(accounts.id, query.scope.root.id)
          : under;
        if (!scope) return { rows: [], total: 0 };
        conditions.push(scope);
      }
      if (query.types) conditions.push(inArray(accounts.accountType, [...query.types]));
      if (query.activeOnly) conditions.push(isNull(accounts.disabledAt));
      if (query.phrase) conditions.push(phraseMatch(query.phrase.text, query.phrase.enhanced));
      conditions.push(...(query.where ?? []));
      const where = and(...conditions);
      const rows = await db
        .select()
        .from(accounts)
        .where(where)
        .orderBy(desc(accounts.createdAt), desc(accounts.id))
        .offset(query.offset)
        .limit(query.limit);
      const [total] = await db.select({ value: count() }).from(accounts).where(where);
      return { rows, total: total?.value ?? 0 };
    },

    /** Conditions for the organisation search filters that have columns today. */
    filters(input: {
      onboardingComplete?: boolean;
      billingId?: string;
      externalAccountId?: string;
      createdStart?: Date;
      createdEnd?: Date;
    }): SQL[] {
      const where: SQL[] = [];
      const onboarded = sql`coalesce(${accounts.settings} -> 'onboarding' ->> 'onboardingComplete', 'false') = 'true'`;
      if (input.onboardingComplete === true) where.push(onboarded);
      if (input.onboardingComplete === false) where.push(sql`not (${onboarded})`);
      if (input.billingId) where.push(eq(accounts.externalBillingId, input.billingId));
      if (input.externalAccountId) where.push(eq(accounts.externalAccountId, input.externalAccountId));
      if (input.createdStart) where.push(gte(accounts.createdAt, input.createdStart));
      if (input.createdEnd) where.push(lte(accounts.createdAt, input.createdEnd));
      return where;
    },

    /** Soft-deletes an organisation and its agent accounts in one statement. */
    async deleteOrganization(id: number): Promise<void> {
      await db
        .update(accounts)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(accounts.organizationId, id), isNull(accounts.deletedAt)));
    },

    async deleteAccount(id: number): Promise<void> {
      await db.update(accounts).set({ deletedAt: sql`now()` }).where(eq(accounts.id, id));
    },
  };
}

export type HierarchyRepository = ReturnType<typeof createHierarchyRepository>;
