import { and, asc, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { accounts, type DomainSettingsColumn, domains } from "../../db/schema/index.ts";

export type DomainRow = typeof domains.$inferSelect;

export function createDomainsRepository(db: Database) {
  return {
    /** A host with its partner, when the partner is live (not deleted or disabled). */
    async lookup(host: string) {
      const [row] = await db
        .select({ domain: domains, partner: accounts })
        .from(domains)
        .innerJoin(accounts, eq(accounts.id, domains.accountId))
        .where(and(eq(domains.host, host), isNull(accounts.deletedAt), isNull(accounts.disabledAt)))
        .limit(1);
      return row ?? null;
    },

    async findByHost(host: string): Promise<DomainRow | null> {
      const [row] = await db.select().from(domains).where(eq(domains.host, host)).limit(1);
      return row ?? null;
    },

    async listOf(partnerId: number): Promise<DomainRow[]> {
      return db
        .select()
        .from(domains)
        .where(eq(domains.accountId, partnerId))
        .orderBy(desc(domains.isDefault), asc(domains.createdAt), asc(domains.id));
    },

    /** Adds a host; null when another row holds it. A partner's first domain is its default. */
    async insert(values: {
      accountId: number;
      host: string;
      name: string | null;
      image: string | null;
      settings: DomainSettingsColumn;
    }): Promise<DomainRow | null> {
      try {
        const [row] = await db
          .insert(domains)
          .values({
            ...values,
            isDefault: sql`not exists (select 1 from ${domains} where ${domains.accountId} = ${values.accountId})`,
          })
          .returning();
        return row ?? null;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    async update(
      id: number,
      values: { name?: string | null; image?: string | null; settings?: DomainSettingsColumn },
    ): Promise<DomainRow> {
      const [row] = await db.update(domains).set(values).where(eq(domains.id, id)).returning();
      if (!row) throw new Error(`domain ${id} vanished`);
      return row;
    },

    /** Makes one domain its partner's default, the others not, in one transaction. */
    async setDefault(partnerId: number, id: number): Promise<DomainRow> {
      return db.transaction(async (tx) => {
        await tx
          .update(domains)
          .set({ isDefault: false })
          .where(and(eq(domains.accountId, partnerId), ne(domains.id, id)));
        const [row] = await tx
          .update(domains)
          .set({ isDefault: true })
          .where(and(eq(domains.accountId, partnerId), eq(domains.id, id)))
          .returning();
        if (!row) throw new Error(`domain ${id} vanished`);
        return row;
      });
    },

    /** Removes a domain; when it was the default, the partner's oldest other domain takes over. */
    async remove(partnerId: number, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const [removed] = await tx
          .delete(domains)
          .where(and(eq(domains.accountId, partnerId), eq(domains.id, id)))
          .returning();
        if (!removed?.isDefault) return;
        const [next] = await tx
          .select({ id: domains.id })
          .from(domains)
          .where(eq(domains.accountId, partnerId))
          .orderBy(asc(domains.createdAt), asc(domains.id))
          .limit(1);
        if (next) await tx.update(domains).set({ isDefault: true }).where(eq(domains.id, next.id));
      });
    },
  };
}

export type DomainsRepository = ReturnType<typeof createDomainsRepository>;
