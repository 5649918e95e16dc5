import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { installedApps } from "../../db/schema/index.ts";

export type InstalledAppRow = typeof installedApps.$inferSelect;

export function createAppsRepository(db: Database) {
  const key = (accountId: number, appId: string, appVersion: string) =>
    and(
      eq(installedApps.accountId, accountId),
      eq(installedApps.appId, appId),
      eq(installedApps.appVersion, appVersion),
    );
  return {
    async list(accountId: number): Promise<InstalledAppRow[]> {
      return db.select().from(installedApps).where(eq(installedApps.accountId, accountId));
    },
    async find(accountId: number, appId: string, appVersion: string): Promise<InstalledAppRow | null> {
      const [row] = await db
        .select()
        .from(installedApps)
        .where(key(accountId, appId, appVersion))
        .limit(1);
      return row ?? null;
    },
    /** Installs once: a second install of the same app and version changes nothing. */
    async install(values: {
      accountId: number;
      orgId: number | null;
      appId: string;
      appVersion: string;
      data: Record<string, unknown>;
    }): Promise<void> {
      await db.insert(installedApps).values(values).onConflictDoNothing();
    },
    async setData(accountId: number, appId: string, appVersion: string, data: Record<string, unknown>) {
      const [row] = await db
        .update(installedApps)
        .set({ data, updatedAt: new Date() })
        .where(key(accountId, appId, appVersion))
        .returning();
      return row ?? null;
    },
    async remove(accountId: number, appId: string, appVersion: string): Promise<boolean> {
      const rows = await db
        .delete(installedApps)
        .where(key(accountId, appId, appVersion))
        .returning();
      return rows.length > 0;
    },
  };
}

export type AppsRepository = ReturnType<typeof createAppsRepository>;
