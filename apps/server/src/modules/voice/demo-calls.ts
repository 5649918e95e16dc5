import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import type { CallLeg } from "./call-leg.ts";
import type { CallSession, CallSummary, StartCallOptions } from "./call-session.ts";
import { simulatedCaller } from "./simulated-caller.ts";
import type { VoiceRepository } from "./voice.repository.ts";

/**
 * The demo's callers: each rings the agent and asks its questions, one per turn (questions the demo agent's
 * instructions answer, one sentence each: a pause inside a line would be heard as the end of a turn).
 */
export const DEMO_CALLERS: readonly { from: string; lines: readonly string[] }[] = [
  { from: "+15035550181", lines: ["How much is a cleaning?", "Do you see children?"] },
  { from: "+15035550182", lines: ["Do you offer teeth whitening?"] },
  { from: "+15035550183", lines: ["What should I do in a dental emergency?"] },
];

/**
 * The demo's latest calls, made through the real call pipeline: simulated callers ring the demo agent one
 * after another and talk with it (recognition, the agent's model, speech), so their log rows, transcripts
 * and statistics are what a real call leaves. Queued once, when the demo data is seeded; the history before
 * them is generated (months of calls cannot be made in real time).
 */
export const demoCallsJob = defineJob({
  name: "voice-demo-calls",
  payload: z.object({ agentUsername: z.string().min(1) }),
  options: {
    policy: "singleton",
    // A call cut off by a stop is not made again: the demo has its history either way.
    retryLimit: 0,
    retryDelaySeconds: 0,
    retryBackoff: false,
    expireInSeconds: 15 * 60,
    concurrency: 1,
  },
});

/** Above the three calls' real time: what is not charged if the server dies during them. */
const CALLS_TAKE_AT_MOST_MS = 10 * 60_000;

export type DemoCallsDeps = {
  voice: Pick<VoiceRepository, "agentByUsername">;
  /** Usage before `at` is not charged (modules/usage). */
  chargeFrom: (orgId: number, at: Date) => Promise<void>;
  /** The callers' voice (Festival's), else the agent's synthesiser when it is not installed. */
  callerTts: TtsProvider;
  tts: TtsProvider;
  /** Why calls cannot be answered here (a speech tool missing), else null. */
  unavailable: () => string | null;
  startCall: (leg: CallLeg, options: StartCallOptions) => CallSession;
  log: FastifyBaseLogger;
};

/** Makes the demo calls to the agent `agentUsername`; answers each call's summary. */
export async function makeDemoCalls(
  deps: DemoCallsDeps,
  agentUsername: string,
  signal: AbortSignal,
): Promise<CallSummary[]> {
  const missing = deps.unavailable();
  if (missing) {
    deps.log.warn(`the demo calls were not made: ${missing}`);
    return [];
  }
  const agent = await deps.voice.agentByUsername(agentUsername);
  if (!agent) {
    deps.log.warn(`the demo calls were not made: no agent ${agentUsername}`);
    return [];
  }
  const voice = deps.callerTts.unavailable() ? deps.tts : deps.callerTts;
  // The demo calls are the seeded history's newest part: like the rest of it, not charged to the wallet.
  const orgId = agent.orgId;
  if (orgId !== null) await deps.chargeFrom(orgId, new Date(Date.now() + CALLS_TAKE_AT_MOST_MS));
  const summaries: CallSummary[] = [];
  try {
    for (const caller of DEMO_CALLERS) {
      if (signal.aborted) break;
      const call = await simulatedCaller({
        tts: voice,
        lines: caller.lines,
        from: caller.from,
        to: agent.number ?? agentUsername,
      });
      const session = deps.startCall(call.leg, { agentAccountId: agent.id });
      const stop = () => session.hangup("server shutting down");
      signal.addEventListener("abort", stop, { once: true });
      summaries.push(await session.ended);
      signal.removeEventListener("abort", stop);
    }
  } finally {
    if (orgId !== null) await deps.chargeFrom(orgId, new Date());
  }
  deps.log.info(`made ${summaries.length} demo calls to ${agentUsername}`);
  return summaries;
}
