import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import type { CallLeg } from "./call-leg.ts";
import type { CallSession, CallSummary, StartCallOptions } from "./call-session-types.ts";
import type { CallerMind } from "./persona-caller.ts";
import { simulatedCaller } from "./simulated-caller.ts";

/**
 * A test scenario's call: who rings which agent, and what the simulated caller says: its lines, one a turn,
 * or (no lines) what its persona says, decided turn by turn from the agent's words.
 */
export type ScenarioCallInput = { agentAccountId: number; lines: string[]; persona: string; from: string };

/** What the call left: the pipeline's summary and when the caller first heard the agent. */
export type ScenarioCallResult = {
  summary: CallSummary;
  /** ms from the call's start to the greeting's first frame reaching the caller, else null. */
  greetingMs: number | null;
  durationMs: number;
  linesSaid: number;
  /** The simulated caller could not go on (its persona's model failed): why, else null. */
  callerFailed: string | null;
};

/** Longest a scenario's call may take: its lines, the agent's answers and the pauses between them. */
const SCENARIO_CALL_MAX_MS = 5 * 60_000;

/**
 * Makes a test scenario's call: a simulated caller (the demo calls' caller) rings the agent's staging copy
 * through the real call pipeline, says its lines and hangs up after the last answer. The call is a test
 * call (a room of its own, as the editor's test call), so it does not join a person's thread.
 */
export async function makeScenarioCall(
  deps: {
    /** The caller's voice (Festival's when installed, which the recogniser hears best). */
    callerTts: TtsProvider;
    /** Why calls cannot be answered here (a speech tool missing), else null. */
    unavailable: () => string | null;
    startCall: (leg: CallLeg, options: StartCallOptions) => CallSession;
    /** The mind of a caller playing `persona` (the agent's organisation's model, else the sandbox's rules). */
    personaMind: (agentAccountId: number, persona: string) => Promise<CallerMind>;
  },
  input: ScenarioCallInput,
  signal?: AbortSignal,
): Promise<ScenarioCallResult> {
  const missing = deps.unavailable();
  if (missing) throw new Error(`The call could not be made: ${missing}`);
  const started = Date.now();
  const mind =
    input.lines.length === 0 ? await deps.personaMind(input.agentAccountId, input.persona) : undefined;
  const call = await simulatedCaller({
    tts: deps.callerTts,
    lines: input.lines,
    ...(mind ? { mind } : {}),
    from: input.from,
    to: `agent-${input.agentAccountId}`,
    maxMs: SCENARIO_CALL_MAX_MS,
  });
  const session = deps.startCall(call.leg, {
    agentAccountId: input.agentAccountId,
    stage: "staging",
    roomKind: "test",
    // The caller with a persona hears the agent's words as the transcript tells them.
    onTranscript: (role, text, final) => {
      if (role === "agent" && final) call.agentSaid(text);
    },
  });
  const stop = () => session.hangup("the test run stopped");
  signal?.addEventListener("abort", stop, { once: true });
  try {
    const summary = await session.ended;
    return {
      summary,
      greetingMs: call.stats.firstHeardMs,
      durationMs: Date.now() - started,
      linesSaid: call.stats.linesSaid,
      callerFailed: call.stats.mindFailed,
    };
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}
