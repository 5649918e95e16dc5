import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { isForeignKeyViolation } from "../../db/errors.ts";
import {
  accounts,
  memberships,
  users,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "../../db/schema/index.ts";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export function createWebhooksRepository(db: Database) {
  return {
    async listEndpoints(orgId: number): Promise<EndpointRow[]> {
      return db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.orgId, orgId))
        .orderBy(desc(webhookEndpoints.id));
    },

    async countEndpoints(orgId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.orgId, orgId));
      return Number(row?.n ?? 0);
    },

    async findEndpoint(orgId: number, id: number): Promise<EndpointRow | null> {
      const [row] = await db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, id)));
      return row ?? null;
    },

    async findEndpointById(id: number): Promise<EndpointRow | null> {
      const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
      return row ?? null;
    },

    async findEndpointByUrl(orgId: number, url: string): Promise<EndpointRow | null> {
      const [row] = await db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.url, url)))
        .orderBy(desc(webhookEndpoints.id))
        .limit(1);
      return row ?? null;
    },

    /** The enabled endpoints of an organisation that take events of `type`. */
    async subscribers(orgId: number, type: string): Promise<EndpointRow[]> {
      return db
        .select()
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.orgId, orgId),
            isNull(webhookEndpoints.disabledAt),
            or(eq(webhookEndpoints.type, type), eq(webhookEndpoints.type, "all")),
          ),
        );
    },

    async insertEndpoint(values: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
      const [row] = await db.insert(webhookEndpoints).values(values).returning();
      if (!row) throw new Error("webhook endpoint not inserted");
      return row;
    },

    async updateEndpoint(
      id: number,
      values: Partial<typeof webhookEndpoints.$inferInsert>,
    ): Promise<EndpointRow | null> {
      const [row] = await db
        .update(webhookEndpoints)
        .set(values)
        .where(eq(webhookEndpoints.id, id))
        .returning();
      return row ?? null;
    },

    /** Counts a delivery that failed for good; answers the endpoint with its new streak. */
    async addFailure(id: number): Promise<EndpointRow | null> {
      const [row] = await db
        .update(webhookEndpoints)
        .set({ failureStreak: sql`${webhookEndpoints.failureStreak} + 1` })
        .where(eq(webhookEndpoints.id, id))
        .returning();
      return row ?? null;
    },

    async deleteEndpoints(orgId: number, where: { id?: number; url?: string }): Promise<number> {
      const conditions = [eq(webhookEndpoints.orgId, orgId)];
      if (where.id !== undefined) conditions.push(eq(webhookEndpoints.id, where.id));
      if (where.url !== undefined) conditions.push(eq(webhookEndpoints.url, where.url));
      const rows = await db
        .delete(webhookEndpoints)
        .where(and(...conditions))
        .returning({ id: webhookEndpoints.id });
      return rows.length;
    },

    async insertDelivery(values: typeof webhookDeliveries.$inferInsert): Promise<DeliveryRow> {
      const [row] = await db.insert(webhookDeliveries).values(values).returning();
      if (!row) throw new Error("webhook delivery not inserted");
      return row;
    },

    async findDelivery(id: number): Promise<DeliveryRow | null> {
      const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
      return row ?? null;
    },

    /** Null when the delivery is gone or, with `expected`, has moved on from that series and attempt. */
    async updateDelivery(
      id: number,
      values: Partial<typeof webhookDeliveries.$inferInsert>,
      expected?: { series: number; attemptCount: number },
    ): Promise<DeliveryRow | null> {
      const [row] = await db
        .update(webhookDeliveries)
        .set(values)
        .where(
          and(
            eq(webhookDeliveries.id, id),
            expected ? eq(webhookDeliveries.series, expected.series) : undefined,
            expected ? eq(webhookDeliveries.attemptCount, expected.attemptCount) : undefined,
          ),
        )
        .returning();
      return row ?? null;
    },

    /** False when the delivery was deleted (with its endpoint) while the attempt ran. */
    async insertAttempt(values: typeof webhookAttempts.$inferInsert): Promise<boolean> {
      try {
        await db.insert(webhookAttempts).values(values);
        return true;
      } catch (error) {
        if (isForeignKeyViolation(error)) return false;
        throw error;
      }
    },

    async listDeliveries(
      orgId: number,
      options: { endpointId?: number; limit: number },
    ): Promise<(DeliveryRow & { url: string; attempts: AttemptRow[] })[]> {
      const conditions = [eq(webhookDeliveries.orgId, orgId)];
      if (options.endpointId !== undefined)
        conditions.push(eq(webhookDeliveries.endpointId, options.endpointId));
      const rows = await db
        .select({ delivery: webhookDeliveries, url: webhookEndpoints.url })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(and(...conditions))
        .orderBy(desc(webhookDeliveries.id))
        .limit(options.limit);
      const ids = rows.map((row) => row.delivery.id);
      const attempts =
        ids.length === 0
          ? []
          : await db
              .select()
              .from(webhookAttempts)
              .where(inArray(webhookAttempts.deliveryId, ids))
              .orderBy(webhookAttempts.id);
      const byDelivery = new Map<number, AttemptRow[]>();
      for (const attempt of attempts) {
        const list = byDelivery.get(attempt.deliveryId) ?? [];
        list.push(attempt);
        byDelivery.set(attempt.deliveryId, list);
      }
      return rows.map((row) => ({
        ...row.delivery,
        url: row.url,
        attempts: byDelivery.get(row.delivery.id) ?? [],
      }));
    },

    async attemptsOf(deliveryId: number): Promise<AttemptRow[]> {
      return db
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, deliveryId))
        .orderBy(webhookAttempts.id);
    },

    /** The e-mail addresses of an organisation's owners (told when a webhook is turned off). */
    async ownerEmails(orgId: number): Promise<{ emails: string[]; orgName: string | null }> {
      const rows = await db
        .select({ email: users.email })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.accountId, orgId), eq(memberships.role, "owner")));
      const [org] = await db
        .select({ details: accounts.details, username: accounts.username })
        .from(accounts)
        .where(eq(accounts.id, orgId));
      const details = (org?.details ?? {}) as Record<string, unknown>;
      const name = typeof details.orgName === "string" ? details.orgName : (org?.username ?? null);
      return {
        emails: rows.map((row) => row.email).filter((email): email is string => !!email),
        orgName: name,
      };
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
