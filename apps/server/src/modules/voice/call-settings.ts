import {
  CALL_SETTINGS_DEFAULTS,
  callSettingsFieldsSchema,
  transferDestinationSchema,
} from "@switchboard/api";
import { z } from "zod";
import { FRAME_MS } from "../../audio/audio-format.ts";

/**
 * How an agent takes turns on a call. Per agent: the agent account's `details.callSettings` (any field
 * missing or out of range falls back to its default).
 */
export const callSettingsSchema = z.object({
  /** Silence after the caller's last voiced frame before the turn ends. */
  endpointSilenceMs: z.number().int().min(200).max(3000).catch(500),
  /**
   * A shorter pause after which the turn ends when what was said so far reads as a complete sentence (the
   * recogniser runs at the pause); 0 turns it off. Never longer than `endpointSilenceMs`.
   */
  quickTurnSilenceMs: z.number().int().min(0).max(3000).catch(160),
  /** Voiced speech while the agent talks before it counts as an interruption (shorter: a backchannel). */
  bargeInMinSpeechMs: z.number().int().min(60).max(2000).catch(400),
  /** Voiced speech an utterance needs to be a turn at all (shorter: a click, a cough). */
  minUtteranceMs: z.number().int().min(40).max(1000).catch(120),
  /** Caller silence after the agent finished before it asks whether anyone is there (0: never). */
  idlePromptSeconds: z.number().int().min(0).max(600).catch(10),
  /** Longest call; the agent says goodbye and hangs up. */
  maxCallSeconds: z
    .number()
    .int()
    .min(10)
    .max(4 * 3600)
    .catch(1800),
  /**
   * Record calls: a stereo WAV (caller left, agent right) linked from the call's log row. On unless the
   * agent's owner switched it off (an agent that never set it records).
   */
  recordCalls: z.boolean().catch(CALL_SETTINGS_DEFAULTS.recordCalls),
  /** Said before the greeting of a recorded call (recording-notice.ts). */
  recordingNotice: callSettingsFieldsSchema.shape.recordingNotice.catch(
    CALL_SETTINGS_DEFAULTS.recordingNotice,
  ),
  /**
   * How long a caller turn's recognition may take before the turn is given up (a recogniser that hangs or
   * is overloaded): the agent then asks the caller to repeat.
   */
  recognitionTimeoutMs: z.number().int().min(500).max(60_000).catch(10_000),
  idlePrompt: z.string().min(1).max(300).catch("Are you still there?"),
  /** Said once when a caller turn could not be understood (nothing recognised, or the recogniser failed). */
  repeatPrompt: z.string().min(1).max(300).catch("Sorry, could you say that again?"),
  maxCallMessage: z.string().min(1).max(300).catch("We have reached the time limit for this call. Goodbye."),
  /** Where the agent may transfer calls, by name (call-transfer.ts); an invalid entry is left out. */
  transferDestinations: z
    .array(z.unknown())
    .catch([])
    .transform((list) =>
      list.flatMap((entry) => {
        const parsed = transferDestinationSchema.safeParse(entry);
        return parsed.success ? [parsed.data] : [];
      }),
    ),
  /** A tool call that takes longer than this gets a short filler line ("One moment…"); 0: never. */
  fillerAfterMs: z.number().int().min(0).max(10_000).catch(700),
});
export type CallSettings = z.infer<typeof callSettingsSchema>;

export const DEFAULT_CALL_SETTINGS: CallSettings = callSettingsSchema.parse({});

/** The agent's settings from its account details, defaults for anything missing or invalid. */
export function callSettingsOf(details: unknown, override: Partial<CallSettings> = {}): CallSettings {
  const stored = (details as { callSettings?: unknown } | null)?.callSettings;
  const base = callSettingsSchema.parse(stored && typeof stored === "object" ? stored : {});
  return { ...base, ...override };
}

export const framesOf = (ms: number) => Math.max(1, Math.round(ms / FRAME_MS));
