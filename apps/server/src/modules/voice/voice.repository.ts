import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { conversationMessages } from "../../db/schema/index.ts";

/** What the call pipeline writes beyond the runtime's turns: the text of an interrupted agent message. */
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
  };
}

export type VoiceRepository = ReturnType<typeof createVoiceRepository>;
