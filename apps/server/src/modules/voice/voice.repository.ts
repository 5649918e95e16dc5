import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { accounts, conversationMessages, phoneNumbers } from "../../db/schema/index.ts";

/**
 * What the call pipeline writes beyond the runtime's turns: the text of an interrupted agent message, and
 * an agent's call settings (`details.callSettings`).
 */
export function createVoiceRepository(db: Database) {
  return {
    /**
     * An agent message the caller interrupted keeps only what was heard. A model stream cancelled by the
     * barge-in was stored as failed with no text; with words heard it becomes a complete, cut message.
     */
    async cutMessage(id: number, heard: string): Promise<void> {
      await db
        .update(conversationMessages)
        .set(
          heard
            ? { text: heard, status: "complete", error: "Interrupted by the caller." }
            : { text: "", error: "Interrupted by the caller before anything was heard." },
        )
        .where(eq(conversationMessages.id, id));
    },
    /**
     * The agent a called number reaches: the agent the number is assigned to (Numbers), else an enabled
     * agent account with that phone number; null for none.
     */
    async agentByNumber(number: string): Promise<number | null> {
      const [assigned] = await db
        .select({ id: phoneNumbers.agentAccountId })
        .from(phoneNumbers)
        .where(and(eq(phoneNumbers.number, number), isNull(phoneNumbers.releasedAt)))
        .limit(1);
      if (assigned?.id) return assigned.id;
      const [row] = await db
        .select({ id: accounts.id })
        .from(accounts)
        .where(
          and(
            eq(accounts.accountType, "agent"),
            eq(accounts.phoneNumber, number),
            isNull(accounts.disabledAt),
          ),
        )
        .limit(1);
      return row?.id ?? null;
    },
    /** An agent account by its username (the demo's called agent), with its own number; null for none. */
    async agentByUsername(
      username: string,
    ): Promise<{ id: number; orgId: number | null; number: string | null } | null> {
      const [agent] = await db
        .select({ id: accounts.id, orgId: accounts.organizationId, number: accounts.switchboardPhoneNumber })
        .from(accounts)
        .where(
          and(eq(accounts.username, username), eq(accounts.accountType, "agent"), isNull(accounts.deletedAt)),
        );
      return agent ?? null;
    },
    /** The id when it is an enabled agent account, else null. */
    async answeringAgent(id: number): Promise<number | null> {
      const [row] = await db
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.id, id), eq(accounts.accountType, "agent"), isNull(accounts.disabledAt)))
        .limit(1);
      return row?.id ?? null;
    },
    /** Merges `changes` into the agent account's `details.callSettings`; answers the stored settings. */
    async saveCallSettings(accountId: number, changes: Record<string, unknown>): Promise<unknown> {
      const [row] = await db
        .update(accounts)
        .set({
          details: sql`jsonb_set(${accounts.details}, '{callSettings}', coalesce(${accounts.details} -> 'callSettings', '{}'::jsonb) || ${JSON.stringify(changes)}::jsonb)`,
        })
        .where(eq(accounts.id, accountId))
        .returning({ details: accounts.details });
      return (row?.details as { callSettings?: unknown } | undefined)?.callSettings ?? null;
    },
  };
}

export type VoiceRepository = ReturnType<typeof createVoiceRepository>;
