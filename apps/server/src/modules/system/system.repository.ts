import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { serverInstances } from "../../db/schema/index.ts";

export type InstanceRecord = { id: string; hostname: string; pid: number; version: string };

export function createSystemRepository(db: Database) {
  return {
    async insertInstance(instance: InstanceRecord): Promise<Date> {
      const [row] = await db
        .insert(serverInstances)
        .values(instance)
        .returning({ startedAt: serverInstances.startedAt });
      return row?.startedAt ?? new Date();
    },
    async touchInstance(id: string): Promise<void> {
      await db.update(serverInstances).set({ lastSeenAt: sql`now()` }).where(eq(serverInstances.id, id));
    },
    async stopInstance(id: string): Promise<void> {
      await db.update(serverInstances).set({ stoppedAt: sql`now()` }).where(eq(serverInstances.id, id));
    },
    /** Instances not stopped that reported within the window. */
    async countActiveInstances(windowSeconds: number): Promise<number> {
      const [row] = await db
        .select({ value: count() })
        .from(serverInstances)
        .where(
          and(
            isNull(serverInstances.stoppedAt),
            gt(serverInstances.lastSeenAt, sql`now() - make_interval(secs => ${windowSeconds})`),
          ),
        );
      return row?.value ?? 0;
    },
  };
}

export type SystemRepository = ReturnType<typeof createSystemRepository>;
