import { and, asc, eq, gte, inArray, isNull, notInArray, sql } from "drizzle-orm";
import type { AccountRow } from "../../access/access.ts";
import type { Database } from "../../db/client.ts";
import {
  accounts,
  agentConfigs,
  conversations,
  profileLinkClicks,
  profileLinks,
} from "../../db/schema/index.ts";

export type ProfileLinkRow = typeof profileLinks.$inferSelect;

/** The links of public pages, their clicks, and the accounts and agents the pages show. */
export function createProfilesRepository(db: Database) {
  return {
    async findLiveByUsername(username: string): Promise<AccountRow | null> {
      const [row] = await db
        .select()
        .from(accounts)
        .where(and(sql`lower(${accounts.username}) = ${username.toLowerCase()}`, isNull(accounts.deletedAt)))
        .limit(1);
      return row && !row.disabledAt ? row : null;
    },

    async findAccount(id: number): Promise<AccountRow | null> {
      const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
      return row ?? null;
    },

    /** The live agent accounts of an organisation, oldest first. */
    async agentsOf(orgId: number): Promise<AccountRow[]> {
      return db
        .select()
        .from(accounts)
        .where(
          and(
            eq(accounts.organizationId, orgId),
            eq(accounts.accountType, "agent"),
            isNull(accounts.deletedAt),
            isNull(accounts.disabledAt),
          ),
        )
        .orderBy(asc(accounts.id));
    },

    /** The agent's published configuration, or null while it has none. */
    async productionConfig(agentId: number): Promise<Record<string, unknown> | null> {
      const [row] = await db
        .select({ config: agentConfigs.config })
        .from(agentConfigs)
        .where(and(eq(agentConfigs.agentAccountId, agentId), eq(agentConfigs.stage, "production")))
        .limit(1);
      return row ? (row.config as Record<string, unknown>) : null;
    },

    /** Calls an organisation took from one caller address since a time (a visitor's calls in the hour). */
    async callsFrom(orgId: number, from: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(conversations)
        .where(
          and(
            eq(conversations.orgId, orgId),
            eq(conversations.channel, "voice"),
            eq(conversations.fromAddress, from),
            gte(conversations.startedAt, since),
          ),
        );
      return row?.n ?? 0;
    },

    async listLinks(accountId: number): Promise<ProfileLinkRow[]> {
      return db
        .select()
        .from(profileLinks)
        .where(eq(profileLinks.accountId, accountId))
        .orderBy(asc(profileLinks.position), asc(profileLinks.id));
    },

    /**
     * Replaces an account's links in the given order: a link that keeps its id (one of this account's)
     * keeps its clicks; the others are new; links left out are deleted with their clicks.
     */
    async replaceLinks(accountId: number, links: { id?: number; title: string; url: string }[]) {
      return db.transaction(async (tx) => {
        const existing = await tx
          .select({ id: profileLinks.id })
          .from(profileLinks)
          .where(eq(profileLinks.accountId, accountId));
        const own = new Set(existing.map((r) => r.id));
        const kept = links.flatMap((l) => (l.id !== undefined && own.has(l.id) ? [l.id] : []));
        await tx
          .delete(profileLinks)
          .where(
            kept.length > 0
              ? and(eq(profileLinks.accountId, accountId), notInArray(profileLinks.id, kept))
              : eq(profileLinks.accountId, accountId),
          );
        const seen = new Set<number>();
        for (const [position, link] of links.entries()) {
          if (link.id !== undefined && own.has(link.id) && !seen.has(link.id)) {
            seen.add(link.id);
            await tx
              .update(profileLinks)
              .set({ position, title: link.title, url: link.url })
              .where(and(eq(profileLinks.id, link.id), eq(profileLinks.accountId, accountId)));
          } else {
            await tx.insert(profileLinks).values({ accountId, position, title: link.title, url: link.url });
          }
        }
      });
    },

    /** Counts a click on a link; answers the link (null when there is none). */
    async countClick(linkId: number): Promise<ProfileLinkRow | null> {
      return db.transaction(async (tx) => {
        const [link] = await tx
          .update(profileLinks)
          .set({ clicks: sql`${profileLinks.clicks} + 1` })
          .where(eq(profileLinks.id, linkId))
          .returning();
        if (!link) return null;
        await tx.insert(profileLinkClicks).values({ accountId: link.accountId, linkId: link.id });
        return link;
      });
    },

    /** Clicks per link since a time. */
    async clicksSince(accountId: number, since: Date): Promise<Map<number, number>> {
      const rows = await db
        .select({ linkId: profileLinkClicks.linkId, n: sql<number>`count(*)::int` })
        .from(profileLinkClicks)
        .where(and(eq(profileLinkClicks.accountId, accountId), gte(profileLinkClicks.clickedAt, since)))
        .groupBy(profileLinkClicks.linkId);
      return new Map(rows.map((r) => [r.linkId, r.n]));
    },

    /** Clicks per UTC day (YYYY-MM-DD) since a time. */
    async clicksPerDay(accountId: number, since: Date): Promise<Map<string, number>> {
      const day = sql<string>`to_char(${profileLinkClicks.clickedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
      const rows = await db
        .select({ day, n: sql<number>`count(*)::int` })
        .from(profileLinkClicks)
        .where(and(eq(profileLinkClicks.accountId, accountId), gte(profileLinkClicks.clickedAt, since)))
        .groupBy(day);
      return new Map(rows.map((r) => [r.day, r.n]));
    },

    /** Merges the link page's settings into the account's details (linksConfig). */
    async setLinksConfig(accountId: number, linksConfig: Record<string, unknown>): Promise<void> {
      await db
        .update(accounts)
        .set({
          details: sql`${accounts.details} || jsonb_build_object('linksConfig', coalesce(${accounts.details}->'linksConfig', '{}'::jsonb) || ${JSON.stringify(linksConfig)}::jsonb)`,
        })
        .where(eq(accounts.id, accountId));
    },

    async linksByIds(ids: number[]): Promise<ProfileLinkRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(profileLinks).where(inArray(profileLinks.id, ids));
    },
  };
}

export type ProfilesRepository = ReturnType<typeof createProfilesRepository>;
