import { eq, sql } from "drizzle-orm";
import { type AccountRow, findLiveAccount } from "../../access/access.ts";
import type { Database } from "../../db/client.ts";
import { appSettings } from "../../db/schema/index.ts";
import { insertAccountIn } from "./accounts.repository.ts";

/** The app_settings key holding the id of the platform's default partner. */
export const PLATFORM_PARTNER_KEY = "platform_partner_id";
export const PLATFORM_PARTNER_NAME = "Switchboard";

/**
 * Every organisation sits in the hierarchy: one that signs up on the main host (not a partner's
 * white-label host) belongs to the platform's default partner, the partner the super admin runs the
 * product itself as. Its id is kept in app_settings (one value for every instance).
 *
 * Why created on first need rather than by a migration: a migration cannot tell a demo database (whose
 * seed already made the platform partner "Switchboard" and records it here) from a production one, and
 * an account made by a migration would exist before the operator configured anything. So the first
 * main-host sign-up makes it, under a transaction-scoped lock so that concurrent first sign-ups make
 * one partner, not several. If the recorded partner was deleted, a new one is made and recorded.
 */
export async function platformPartner(db: Database): Promise<AccountRow> {
  const known = await recordedPartner(db);
  if (known) return known;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${PLATFORM_PARTNER_KEY}))`);
    const again = await recordedPartner(tx);
    if (again) return again;
    const partner = await insertAccountIn(tx, null, {
      accountType: "partner",
      usernameFrom: PLATFORM_PARTNER_NAME.toLowerCase(),
      details: { partnerName: PLATFORM_PARTNER_NAME },
    });
    await recordPlatformPartner(tx, partner.id);
    return partner;
  });
}

/** Records `partnerId` as the platform's default partner (the demo seed records its "Switchboard"). */
export async function recordPlatformPartner(db: Database, partnerId: number): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key: PLATFORM_PARTNER_KEY, value: String(partnerId) })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: String(partnerId) } });
}

async function recordedPartner(db: Database): Promise<AccountRow | null> {
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, PLATFORM_PARTNER_KEY));
  if (!row) return null;
  const partner = await findLiveAccount(db, Number(row.value));
  return partner?.accountType === "partner" ? partner : null;
}
