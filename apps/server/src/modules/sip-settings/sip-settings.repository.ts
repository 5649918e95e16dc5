import { and, asc, desc, eq, inArray, isNotNull, lt, ne, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  sipAllowlist,
  sipCaptureMessages,
  sipOutboundRoutes,
  sipRegistrations,
} from "../../db/schema/index.ts";

export type AllowRow = typeof sipAllowlist.$inferSelect;
export type RouteRow = typeof sipOutboundRoutes.$inferSelect;
export type RegistrationRow = typeof sipRegistrations.$inferSelect;
export type CaptureRow = typeof sipCaptureMessages.$inferSelect;
export type CaptureInsert = typeof sipCaptureMessages.$inferInsert;

/** The only code that touches the SIP settings tables. */
export function createSipSettingsRepository(db: Database) {
  return {
    allAllowEntries: () => db.select({ orgId: sipAllowlist.orgId, ip: sipAllowlist.ip }).from(sipAllowlist),
    allowEntries: (orgId: number) =>
      db.select().from(sipAllowlist).where(eq(sipAllowlist.orgId, orgId)).orderBy(asc(sipAllowlist.id)),
    async countAllowEntries(orgId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(sipAllowlist)
        .where(eq(sipAllowlist.orgId, orgId));
      return Number(row?.n ?? 0);
    },
    async insertAllowEntry(values: { orgId: number; ip: string; label: string }): Promise<AllowRow | null> {
      const [row] = await db.insert(sipAllowlist).values(values).onConflictDoNothing().returning();
      return row ?? null;
    },
    async deleteAllowEntry(orgId: number, where: { id?: number; ip?: string }): Promise<number> {
      const rows = await db
        .delete(sipAllowlist)
        .where(
          and(
            eq(sipAllowlist.orgId, orgId),
            where.id !== undefined ? eq(sipAllowlist.id, where.id) : eq(sipAllowlist.ip, where.ip ?? ""),
          ),
        )
        .returning({ id: sipAllowlist.id });
      return rows.length;
    },

    routes: (orgId: number) =>
      db
        .select()
        .from(sipOutboundRoutes)
        .where(eq(sipOutboundRoutes.orgId, orgId))
        .orderBy(asc(sipOutboundRoutes.id)),
    async route(orgId: number, id: number): Promise<RouteRow | null> {
      const [row] = await db
        .select()
        .from(sipOutboundRoutes)
        .where(and(eq(sipOutboundRoutes.orgId, orgId), eq(sipOutboundRoutes.id, id)));
      return row ?? null;
    },
    async insertRoute(values: typeof sipOutboundRoutes.$inferInsert): Promise<RouteRow> {
      const [row] = await db.insert(sipOutboundRoutes).values(values).returning();
      if (!row) throw new Error("could not add the outbound route");
      return row;
    },
    async updateRoute(
      orgId: number,
      id: number,
      values: Partial<typeof sipOutboundRoutes.$inferInsert>,
    ): Promise<RouteRow | null> {
      const [row] = await db
        .update(sipOutboundRoutes)
        .set(values)
        .where(and(eq(sipOutboundRoutes.orgId, orgId), eq(sipOutboundRoutes.id, id)))
        .returning();
      return row ?? null;
    },
    async deleteRoute(orgId: number, id: number): Promise<number> {
      const rows = await db
        .delete(sipOutboundRoutes)
        .where(and(eq(sipOutboundRoutes.orgId, orgId), eq(sipOutboundRoutes.id, id)))
        .returning({ id: sipOutboundRoutes.id });
      return rows.length;
    },

    async registration(orgId: number): Promise<RegistrationRow | null> {
      const [row] = await db.select().from(sipRegistrations).where(eq(sipRegistrations.orgId, orgId));
      return row ?? null;
    },
    activeRegistrations: () =>
      db.select().from(sipRegistrations).where(ne(sipRegistrations.state, "stopped")),
    async saveRegistration(values: typeof sipRegistrations.$inferInsert): Promise<RegistrationRow> {
      const [row] = await db
        .insert(sipRegistrations)
        .values(values)
        .onConflictDoUpdate({ target: sipRegistrations.orgId, set: { ...values } })
        .returning();
      if (!row) throw new Error("could not save the registration");
      return row;
    },
    async setRegistrationStatus(
      orgId: number,
      values: Pick<RegistrationRow, "state" | "lastError" | "registeredAt" | "expiresAt">,
    ): Promise<void> {
      await db
        .update(sipRegistrations)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(sipRegistrations.orgId, orgId));
    },
    async deleteRegistration(orgId: number): Promise<number> {
      const rows = await db
        .delete(sipRegistrations)
        .where(eq(sipRegistrations.orgId, orgId))
        .returning({ orgId: sipRegistrations.orgId });
      return rows.length;
    },

    async insertCaptures(rows: CaptureInsert[]): Promise<void> {
      if (rows.length) await db.insert(sipCaptureMessages).values(rows);
    },
    /** The organisation's captured calls, newest first. */
    captureCalls: (orgId: number, limit = 100) =>
      db
        .select({
          callId: sipCaptureMessages.callId,
          firstAt: sql`(extract(epoch from min(${sipCaptureMessages.at})) * 1000)::float8`.mapWith(Number),
          lastAt: sql`(extract(epoch from max(${sipCaptureMessages.at})) * 1000)::float8`.mapWith(Number),
          messages: sql`count(*)::int`.mapWith(Number),
          refused: sql`max(${sipCaptureMessages.refused})::int`.mapWith(Number),
        })
        .from(sipCaptureMessages)
        .where(eq(sipCaptureMessages.orgId, orgId))
        .groupBy(sipCaptureMessages.callId)
        .orderBy(sql`max(${sipCaptureMessages.at}) desc`)
        .limit(limit),
    /** Every message of these calls (of the organisation), in order. */
    captureMessages: (orgId: number, callIds: string[]) =>
      callIds.length === 0
        ? Promise.resolve([] as CaptureRow[])
        : db
            .select()
            .from(sipCaptureMessages)
            .where(and(eq(sipCaptureMessages.orgId, orgId), inArray(sipCaptureMessages.callId, callIds)))
            .orderBy(asc(sipCaptureMessages.at), asc(sipCaptureMessages.id))
            .limit(20_000),
    /** Deletes captures older than `before`; answers how many. */
    async purgeCaptures(before: Date): Promise<number> {
      const rows = await db
        .delete(sipCaptureMessages)
        .where(lt(sipCaptureMessages.at, before))
        .returning({ id: sipCaptureMessages.id });
      return rows.length;
    },
    /** For tests: the newest capture rows of any organisation. */
    latestCaptures: (limit = 50) =>
      db
        .select()
        .from(sipCaptureMessages)
        .where(isNotNull(sipCaptureMessages.id))
        .orderBy(desc(sipCaptureMessages.id))
        .limit(limit),
  };
}

export type SipSettingsRepository = ReturnType<typeof createSipSettingsRepository>;
