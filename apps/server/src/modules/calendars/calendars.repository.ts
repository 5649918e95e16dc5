import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { calendarConnections, integrationAppData } from "../../db/schema/index.ts";

export type ConnectionRow = typeof calendarConnections.$inferSelect;
export type CalendarProviderName = ConnectionRow["provider"];
export type NewConnection = Omit<typeof calendarConnections.$inferInsert, "id" | "connectedAt" | "updatedAt">;

export function createCalendarsRepository(db: Database) {
  return {
    async find(accountId: number, provider: CalendarProviderName): Promise<ConnectionRow | null> {
      const [row] = await db
        .select()
        .from(calendarConnections)
        .where(and(eq(calendarConnections.accountId, accountId), eq(calendarConnections.provider, provider)));
      return row ?? null;
    },

    /** The connections of any of the accounts (an agent and its organisation). */
    async ofAccounts(accountIds: number[]): Promise<ConnectionRow[]> {
      if (accountIds.length === 0) return [];
      return db.select().from(calendarConnections).where(inArray(calendarConnections.accountId, accountIds));
    },

    /** Connects (or reconnects, replacing the credentials) the account's calendar of that provider. */
    async upsert(values: NewConnection): Promise<ConnectionRow> {
      const [row] = await db
        .insert(calendarConnections)
        .values(values)
        .onConflictDoUpdate({
          target: [calendarConnections.accountId, calendarConnections.provider],
          set: {
            credentialsEncrypted: values.credentialsEncrypted,
            externalAccount: values.externalAccount ?? null,
            mainCalendarId: values.mainCalendarId ?? null,
            mainCalendarName: values.mainCalendarName ?? null,
            details: values.details ?? {},
            state: "connected",
            brokenReason: null,
            connectedAt: sql`now()`,
            updatedAt: sql`now()`,
          },
        })
        .returning();
      return row as ConnectionRow;
    },

    async update(id: number, values: Partial<NewConnection>): Promise<void> {
      await db
        .update(calendarConnections)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(calendarConnections.id, id));
    },

    async remove(accountId: number, provider: CalendarProviderName): Promise<boolean> {
      const rows = await db
        .delete(calendarConnections)
        .where(and(eq(calendarConnections.accountId, accountId), eq(calendarConnections.provider, provider)))
        .returning({ id: calendarConnections.id });
      return rows.length > 0;
    },

    async appData(accountId: number, slug: string) {
      const [row] = await db
        .select()
        .from(integrationAppData)
        .where(and(eq(integrationAppData.accountId, accountId), eq(integrationAppData.slug, slug)));
      return row ?? null;
    },

    async saveAppData(
      accountId: number,
      slug: string,
      data: Record<string, unknown>,
      secretEncrypted: string | null,
    ) {
      const [row] = await db
        .insert(integrationAppData)
        .values({ accountId, slug, data, secretEncrypted })
        .onConflictDoUpdate({
          target: [integrationAppData.accountId, integrationAppData.slug],
          set: { data, secretEncrypted, updatedAt: sql`now()` },
        })
        .returning();
      return row as typeof integrationAppData.$inferSelect;
    },
  };
}

export type CalendarsRepository = ReturnType<typeof createCalendarsRepository>;
