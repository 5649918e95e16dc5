import { and, asc, desc, eq, gte, inArray, isNull, lte, ne, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  accounts,
  callerIdVerifications,
  outboundCalls,
  phoneNumbers,
  sandboxCallees,
} from "../../db/schema/index.ts";
import { monthsAfter } from "./number-plan.ts";

export type PhoneNumberRow = typeof phoneNumbers.$inferSelect;
export type OutboundCallRow = typeof outboundCalls.$inferSelect;
export type SandboxCalleeRow = typeof sandboxCallees.$inferSelect;

export function createNumbersRepository(db: Database) {
  async function findCallById(id: string) {
    const [row] = await db.select().from(outboundCalls).where(eq(outboundCalls.id, id)).limit(1);
    return row ?? null;
  }
  return {
    async listLive(orgId: number) {
      return db
        .select({ row: phoneNumbers, agentDetails: accounts.details, agentUsername: accounts.username })
        .from(phoneNumbers)
        .leftJoin(accounts, eq(accounts.id, phoneNumbers.agentAccountId))
        .where(and(eq(phoneNumbers.orgId, orgId), isNull(phoneNumbers.releasedAt)))
        .orderBy(desc(phoneNumbers.id));
    },

    /** How many numbers the organisation holds (not released). */
    async countHeld(orgId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(phoneNumbers)
        .where(and(eq(phoneNumbers.orgId, orgId), isNull(phoneNumbers.releasedAt)));
      return Number(row?.n ?? 0);
    },

    async findLive(number: string): Promise<PhoneNumberRow | null> {
      const [row] = await db
        .select()
        .from(phoneNumbers)
        .where(and(eq(phoneNumbers.number, number), isNull(phoneNumbers.releasedAt)))
        .limit(1);
      return row ?? null;
    },

    async takenAmong(numbers: string[]): Promise<Set<string>> {
      if (numbers.length === 0) return new Set();
      const rows = await db
        .select({ number: phoneNumbers.number })
        .from(phoneNumbers)
        .where(and(inArray(phoneNumbers.number, numbers), isNull(phoneNumbers.releasedAt)));
      return new Set(rows.map((row) => row.number));
    },

    /**
     * Points `number` (a live row of the organisation, or a new one) at the agent, in one transaction: the
     * agent's previous number is left unassigned, the number's previous agent loses it, and the agent's
     * `switchboard_phone_number` becomes the number (texts and calls use it). `on` a transaction: inside it
     * (the ledger transaction that charges for the number).
     */
    async assign(
      orgId: number,
      agentAccountId: number,
      number: string,
      create: Omit<typeof phoneNumbers.$inferInsert, "orgId" | "number" | "agentAccountId"> | null,
      on: Database = db,
    ): Promise<PhoneNumberRow> {
      return on.transaction(async (tx) => {
        let [row] = await tx
          .select()
          .from(phoneNumbers)
          .where(and(eq(phoneNumbers.number, number), isNull(phoneNumbers.releasedAt)))
          .for("update");
        if (!row) {
          if (!create) throw new Error("no number row to assign");
          // Its month (paid now, or included in the plan) runs to the same day next month.
          const takenAt = new Date();
          [row] = await tx
            .insert(phoneNumbers)
            .values({
              ...create,
              orgId,
              number,
              agentAccountId: null,
              createdAt: takenAt,
              paidThrough: monthsAfter(takenAt, 1),
            })
            .returning();
        }
        if (!row) throw new Error("could not store the number");
        if (row.agentAccountId && row.agentAccountId !== agentAccountId)
          await tx
            .update(accounts)
            .set({ switchboardPhoneNumber: null })
            .where(and(eq(accounts.id, row.agentAccountId), eq(accounts.switchboardPhoneNumber, number)));
        await tx
          .update(phoneNumbers)
          .set({ agentAccountId: null })
          .where(
            and(
              eq(phoneNumbers.agentAccountId, agentAccountId),
              isNull(phoneNumbers.releasedAt),
              ne(phoneNumbers.id, row.id),
            ),
          );
        const [updated] = await tx
          .update(phoneNumbers)
          .set({
            agentAccountId,
            ...(create?.byoMethod ? { byoMethod: create.byoMethod, carrier: create.carrier } : {}),
          })
          .where(eq(phoneNumbers.id, row.id))
          .returning();
        await tx
          .update(accounts)
          .set({ switchboardPhoneNumber: number })
          .where(eq(accounts.id, agentAccountId));
        return updated ?? row;
      });
    },

    async release(row: PhoneNumberRow) {
      await db.transaction(async (tx) => {
        await tx
          .update(phoneNumbers)
          .set({ releasedAt: new Date(), agentAccountId: null })
          .where(eq(phoneNumbers.id, row.id));
        if (row.agentAccountId)
          await tx
            .update(accounts)
            .set({ switchboardPhoneNumber: null })
            .where(and(eq(accounts.id, row.agentAccountId), eq(accounts.switchboardPhoneNumber, row.number)));
      });
    },

    // Monthly renewals (number-renewals.ts).
    /** Organisations holding a number whose renewal date is at or before `at`. */
    async organizationsWithRenewalsDue(at: Date): Promise<number[]> {
      const rows = await db
        .selectDistinct({ orgId: phoneNumbers.orgId })
        .from(phoneNumbers)
        .where(and(isNull(phoneNumbers.releasedAt), lte(phoneNumbers.paidThrough, at)));
      return rows.map((row) => row.orgId);
    },
    /** The organisation's live numbers, oldest first: the plan's included ones are the first. */
    async heldInOrder(orgId: number): Promise<PhoneNumberRow[]> {
      return db
        .select()
        .from(phoneNumbers)
        .where(and(eq(phoneNumbers.orgId, orgId), isNull(phoneNumbers.releasedAt)))
        .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id));
    },
    /** Moves a live number's renewal on from `from` (and clears past due); false when another run moved it. */
    async renew(tx: Database, id: number, from: Date, to: Date): Promise<boolean> {
      const rows = await tx
        .update(phoneNumbers)
        .set({ paidThrough: to, pastDueSince: null, pastDueCents: null })
        .where(
          and(eq(phoneNumbers.id, id), eq(phoneNumbers.paidThrough, from), isNull(phoneNumbers.releasedAt)),
        )
        .returning({ id: phoneNumbers.id });
      return rows.length > 0;
    },
    /** The renewal due at `paidThrough` is unpaid: past due since then, for `cents`. */
    async markPastDue(id: number, paidThrough: Date, cents: number): Promise<void> {
      await db
        .update(phoneNumbers)
        .set({ pastDueSince: paidThrough, pastDueCents: cents })
        .where(
          and(
            eq(phoneNumbers.id, id),
            eq(phoneNumbers.paidThrough, paidThrough),
            isNull(phoneNumbers.releasedAt),
          ),
        );
    },
    /** Releases a number still unpaid since `paidThrough`; false when it was paid or released meanwhile. */
    async releaseUnpaid(row: PhoneNumberRow): Promise<boolean> {
      return db.transaction(async (tx) => {
        const released = await tx
          .update(phoneNumbers)
          .set({ releasedAt: new Date(), agentAccountId: null })
          .where(
            and(
              eq(phoneNumbers.id, row.id),
              eq(phoneNumbers.paidThrough, row.paidThrough),
              isNull(phoneNumbers.releasedAt),
            ),
          )
          .returning({ agentAccountId: phoneNumbers.agentAccountId });
        if (released.length === 0) return false;
        if (row.agentAccountId)
          await tx
            .update(accounts)
            .set({ switchboardPhoneNumber: null })
            .where(and(eq(accounts.id, row.agentAccountId), eq(accounts.switchboardPhoneNumber, row.number)));
        return true;
      });
    },

    async markForwardingVerified(id: number) {
      await db.update(phoneNumbers).set({ forwardingVerifiedAt: new Date() }).where(eq(phoneNumbers.id, id));
    },

    // Caller-ID verification.
    async findVerification(orgId: number, number: string) {
      const [row] = await db
        .select()
        .from(callerIdVerifications)
        .where(and(eq(callerIdVerifications.orgId, orgId), eq(callerIdVerifications.number, number)))
        .limit(1);
      return row ?? null;
    },
    async startVerification(orgId: number, number: string, codeHash: string, expiresAt: Date) {
      await db
        .insert(callerIdVerifications)
        .values({ orgId, number, codeHash, expiresAt, attempts: 0 })
        .onConflictDoUpdate({
          target: [callerIdVerifications.orgId, callerIdVerifications.number],
          set: { codeHash, expiresAt, attempts: 0 },
        });
    },
    async countAttempt(id: number) {
      await db
        .update(callerIdVerifications)
        .set({ attempts: sql`${callerIdVerifications.attempts} + 1` })
        .where(eq(callerIdVerifications.id, id));
    },
    async markVerified(id: number) {
      await db
        .update(callerIdVerifications)
        .set({ verifiedAt: new Date(), codeHash: null, expiresAt: null })
        .where(eq(callerIdVerifications.id, id));
    },

    // Outbound calls.
    async insertCall(values: typeof outboundCalls.$inferInsert) {
      const [row] = await db.insert(outboundCalls).values(values).returning();
      if (!row) throw new Error("could not store the call");
      return row;
    },
    async updateCall(id: string, values: Partial<typeof outboundCalls.$inferInsert>) {
      await db.update(outboundCalls).set(values).where(eq(outboundCalls.id, id));
    },
    async findCall(orgId: number, id: string) {
      const [row] = await db
        .select()
        .from(outboundCalls)
        .where(and(eq(outboundCalls.orgId, orgId), eq(outboundCalls.id, id)))
        .limit(1);
      return row ?? null;
    },
    findCallById,
    /** Ends a call that is not ended yet as failed (its carrier is gone); the row as it then is. */
    async failUnendedCall(id: string, error: string) {
      await db
        .update(outboundCalls)
        .set({ status: "completed", outcome: "failed", error, endedAt: new Date() })
        .where(and(eq(outboundCalls.id, id), ne(outboundCalls.status, "completed")));
      return findCallById(id);
    },
    async listCalls(orgId: number) {
      return db
        .select()
        .from(outboundCalls)
        .where(eq(outboundCalls.orgId, orgId))
        .orderBy(desc(outboundCalls.createdAt))
        .limit(50);
    },
    async countLive(orgId: number) {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(outboundCalls)
        .where(and(eq(outboundCalls.orgId, orgId), ne(outboundCalls.status, "completed")));
      return row?.n ?? 0;
    },
    async countSince(orgId: number, since: Date) {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(outboundCalls)
        .where(and(eq(outboundCalls.orgId, orgId), gte(outboundCalls.createdAt, since)));
      return row?.n ?? 0;
    },
    // Sandbox callees.
    async findCallee(orgId: number, number: string) {
      const [row] = await db
        .select()
        .from(sandboxCallees)
        .where(and(eq(sandboxCallees.orgId, orgId), eq(sandboxCallees.number, number)))
        .limit(1);
      return row ?? null;
    },
    async setCallee(
      orgId: number,
      number: string,
      behaviour: SandboxCalleeRow["behaviour"],
      says: string | null,
    ) {
      const [row] = await db
        .insert(sandboxCallees)
        .values({ orgId, number, behaviour, says })
        .onConflictDoUpdate({
          target: [sandboxCallees.orgId, sandboxCallees.number],
          set: { behaviour, says, updatedAt: new Date() },
        })
        .returning();
      if (!row) throw new Error("could not store the callee");
      return row;
    },
  };
}

export type NumbersRepository = ReturnType<typeof createNumbersRepository>;
