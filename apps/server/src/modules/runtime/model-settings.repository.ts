import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { orgModelSettings } from "../../db/schema/index.ts";

export type ModelSettingsRow = typeof orgModelSettings.$inferSelect;

export function createModelSettingsRepository(db: Database) {
  return {
    async find(orgId: number): Promise<ModelSettingsRow | null> {
      const [row] = await db
        .select()
        .from(orgModelSettings)
        .where(eq(orgModelSettings.orgId, orgId))
        .limit(1);
      return row ?? null;
    },
    async save(values: Omit<ModelSettingsRow, "updatedAt">): Promise<ModelSettingsRow> {
      const { orgId: _orgId, ...changes } = values;
      const [row] = await db
        .insert(orgModelSettings)
        .values(values)
        .onConflictDoUpdate({ target: orgModelSettings.orgId, set: { ...changes, updatedAt: new Date() } })
        .returning();
      if (!row) throw new Error("model settings write failed");
      return row;
    },
    async remove(orgId: number): Promise<void> {
      await db.delete(orgModelSettings).where(eq(orgModelSettings.orgId, orgId));
    },
  };
}

export type ModelSettingsRepository = ReturnType<typeof createModelSettingsRepository>;
