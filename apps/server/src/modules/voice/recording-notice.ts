/**
 * The recording notice: a caller whose call is recorded is told so before anything else (recording is on
 * by default, and in places where every party must consent, the notice is what lets a caller who stays on
 * the line consent). Said as the agent's first line and stored as its first message, so the transcript
 * shows what the caller was told.
 */
import { CALL_SETTINGS_DEFAULTS } from "@switchboard/api";
import { fillVariables } from "@switchboard/core";

/** The notice a call opens with when it is being recorded (its recorder kept, the setting on); else null. */
export function recordingNoticeOf(
  settings: { recordCalls: boolean; recordingNotice: string },
  recording: boolean,
  variables: Readonly<Record<string, string>> | undefined,
): string | null {
  return recording && settings.recordCalls ? recordingNoticeText(settings.recordingNotice, variables) : null;
}

/**
 * The notice as the caller hears it: the agent's variables filled in like its greeting's (one without a
 * value is left out with its clause, so no `{…}` is ever said); the default notice when nothing is left.
 */
export function recordingNoticeText(
  notice: string,
  variables: Readonly<Record<string, string>> = {},
): string {
  return fillVariables(notice, variables).trim() || CALL_SETTINGS_DEFAULTS.recordingNotice;
}
