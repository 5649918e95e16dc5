/**
 * The call's clock, a stage of its own, checked every 250 ms: at the time limit it asks for the goodbye;
 * after `idlePromptSeconds` of quiet on both sides it asks for the idle prompt once, and ends the call after
 * as long again. Its state (when each side was last heard, whether it prompted, its timer) is its own.
 */
import type { CallShell } from "./call-session-types.ts";

/** What the clock asks of the call. */
export type ClockEvents = {
  /** The agent is answering or has speech not yet played (or sent the last of it just now). */
  agentBusy(): boolean;
  /** When the agent's audio last went out (performance.now()). */
  agentLastSent(): number;
  /** The caller is in an utterance. */
  callerSpeaking(): boolean;
  /** The call's time is up: say goodbye, then end. */
  timeUp(): void;
  /** Nobody spoke for `idlePromptSeconds`: ask whether anyone is there. */
  idle(): void;
};

export type CallClock = ReturnType<typeof createCallClock>;

export function createCallClock(
  call: Pick<CallShell, "settings" | "started" | "subject" | "finished" | "closing" | "end" | "unexpected">,
  events: ClockEvents,
) {
  let lastCallerActivity = performance.now();
  let lastAgentActivity = performance.now();
  let idlePrompted = false;
  let ticker: NodeJS.Timeout | null = null;

  function tick() {
    const { settings } = call;
    if (call.finished || !call.subject) return;
    const now = performance.now();
    if (call.closing) return;
    if (now - call.started >= settings.maxCallSeconds * 1000) {
      events.timeUp();
      return;
    }
    if (events.agentBusy()) lastAgentActivity = now;
    if (settings.idlePromptSeconds <= 0 || events.agentBusy() || events.callerSpeaking()) return;
    const quietSince = Math.max(lastCallerActivity, lastAgentActivity, events.agentLastSent());
    if (now - quietSince < settings.idlePromptSeconds * 1000) return;
    if (idlePrompted) {
      call.end("idle");
      return;
    }
    idlePrompted = true;
    lastCallerActivity = now;
    events.idle();
  }

  return {
    /** The clock runs (every 250 ms) until `stop`. */
    start() {
      ticker = setInterval(() => {
        try {
          tick();
        } catch (error) {
          call.unexpected(error, "housekeeping");
        }
      }, 250);
    },
    /** The caller was heard: the quiet counts from now; `answered` (they spoke or pressed a key): the idle prompt may come again. */
    callerHeard(answered: boolean) {
      lastCallerActivity = performance.now();
      if (answered) idlePrompted = false;
    },
    stop() {
      if (ticker) clearInterval(ticker);
    },
  };
}
