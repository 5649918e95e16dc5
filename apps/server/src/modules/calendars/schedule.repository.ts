import { and, asc, eq, gt, gte, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { scheduleBookings } from "../../db/schema/index.ts";

export type BookingRow = typeof scheduleBookings.$inferSelect;
export type NewBooking = Omit<typeof scheduleBookings.$inferInsert, "id" | "createdAt">;

/** The account's own schedule. */
export function createScheduleRepository(db: Database) {
  return {
    /** Booked (not cancelled) appointments of agents that overlap [from, to). */
    async bookingsBetween(
      orgId: number,
      agentIds: readonly number[],
      from: Date,
      to: Date,
    ): Promise<BookingRow[]> {
      if (agentIds.length === 0) return [];
      return db
        .select()
        .from(scheduleBookings)
        .where(
          and(
            eq(scheduleBookings.orgId, orgId),
            inArray(scheduleBookings.agentAccountId, [...agentIds]),
            eq(scheduleBookings.status, "booked"),
            lt(scheduleBookings.startAt, to),
            gt(scheduleBookings.endAt, from),
          ),
        )
        .orderBy(asc(scheduleBookings.startAt));
    },

    /** Bookings of the agents starting in [from, to), any status, by start. */
    async list(
      orgId: number,
      agentIds: readonly number[] | null,
      from: Date,
      to: Date,
    ): Promise<BookingRow[]> {
      return db
        .select()
        .from(scheduleBookings)
        .where(
          and(
            eq(scheduleBookings.orgId, orgId),
            agentIds ? inArray(scheduleBookings.agentAccountId, [...agentIds]) : undefined,
            gte(scheduleBookings.startAt, from),
            lt(scheduleBookings.startAt, to),
          ),
        )
        .orderBy(asc(scheduleBookings.startAt))
        .limit(1000);
    },

    async find(id: number): Promise<BookingRow | null> {
      const [row] = await db.select().from(scheduleBookings).where(eq(scheduleBookings.id, id));
      return row ?? null;
    },

    async setStatus(id: number, status: BookingRow["status"]): Promise<BookingRow | null> {
      const [row] = await db
        .update(scheduleBookings)
        .set({ status })
        .where(eq(scheduleBookings.id, id))
        .returning();
      return row ?? null;
    },

    async setExternal(
      id: number,
      provider: "google" | "calendly",
      externalId: string,
    ): Promise<BookingRow | null> {
      const [row] = await db
        .update(scheduleBookings)
        .set({ calendarProvider: provider, externalId })
        .where(eq(scheduleBookings.id, id))
        .returning();
      return row ?? null;
    },

    /**
     * Books unless the time overlaps a booked appointment of the same agent: checked and written in one
     * transaction under a lock on the agent, so two conversations cannot take the same time.
     */
    async bookIfFree(values: NewBooking): Promise<BookingRow | null> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${7_001}, ${values.agentAccountId})`);
        const clash = await tx
          .select({ id: scheduleBookings.id })
          .from(scheduleBookings)
          .where(
            and(
              eq(scheduleBookings.agentAccountId, values.agentAccountId),
              eq(scheduleBookings.status, "booked"),
              lt(scheduleBookings.startAt, values.endAt),
              gt(scheduleBookings.endAt, values.startAt),
            ),
          )
          .limit(1);
        if (clash.length > 0) return null;
        const [row] = await tx.insert(scheduleBookings).values(values).returning();
        return row ?? null;
      });
    },
  };
}

export type ScheduleRepository = ReturnType<typeof createScheduleRepository>;
