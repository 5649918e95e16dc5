import { ApiError } from "../../api-error.ts";
import type { AppContext } from "../../app-context.ts";
import { twilioCalls } from "../../providers/numbers/twilio-calls.ts";
import type { SttProvider } from "../../providers/stt/stt-provider.ts";
import { festivalTts } from "../../providers/tts/festival.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import { energyVad } from "../../providers/vad/energy-vad.ts";
import { type VadProvider, vadWithFallback } from "../../providers/vad/vad-provider.ts";
import { webrtcVad } from "../../providers/vad/webrtc-vad.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import type { AgentsService } from "../agents/index.ts";
import { createConversationsRepository } from "../conversations/index.ts";
import { createAgentLookups, type RuntimeModule } from "../runtime/index.ts";
import { createUsageRepository } from "../usage/index.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import { emitCallEvents } from "./call-events.ts";
import type { CallLeg } from "./call-leg.ts";
import { type CallSession, type StartCallOptions, startCallSession } from "./call-session.ts";
import type { TransferDialer } from "./call-session-types.ts";
import { demoCallsJob, makeDemoCalls } from "./demo-calls.ts";
import { createLiveCalls } from "./live-calls.ts";
import { modelPersonaCaller, sandboxPersonaCaller } from "./persona-caller.ts";
import { makeScenarioCall, type ScenarioCallInput, type ScenarioCallResult } from "./scenario-calls.ts";
import { sttFromConfig, ttsFromConfig } from "./speech-providers.ts";
import { twilioVoiceRoutes } from "./twilio/twilio.routes.ts";
import { createVoiceRepository } from "./voice.repository.ts";
import { voiceRoutes } from "./voice.routes.ts";
import { createVoicePreviews } from "./voice-preview.ts";
import type { CarriedCall, WorkerTasks } from "./workers/worker-messages.ts";

/**
 * Wires calls: the speech providers (offline defaults: WebRTC VAD, pocketsphinx, espeak-ng) and the call
 * pipeline over the runtime's agent turns. Transports (SIP, browser, Twilio) hand each answered call's leg to
 * `startCallSession(leg, { agentAccountId })`.
 */
/** How long the demo's calls wait for a voice worker to start before they are made in this process. */
const WORKER_START_WAIT_MS = 60_000;

export function createVoiceModule(
  context: AppContext,
  deps: {
    agents: AgentsService;
    runtime: RuntimeModule;
    /** Where call.started / call.ended go (the organisation's webhooks). */
    webhooks?: Pick<WebhookEvents, "emit">;
    /** Who answers a public page's visitor (profiles). */
    publicCallAgent?: (
      username: string,
      token: string | undefined,
    ) => Promise<{ agentAccountId: number; from: string }>;
    /** Where live call state goes (the browsers' realtime WebSockets). */
    realtime?: Pick<RealtimeHub, "publish">;
    providers?: { vad?: VadProvider; stt?: SttProvider; tts?: TtsProvider };
    /** A voice worker process: told of each call it carries (the API process ends them if it dies). */
    onCall?: (call: CarriedCall, ended: Promise<unknown>) => void;
    /**
     * The API process's voice workers: browser and Twilio calls run their pipeline in one of them when one
     * is up (their socket stays here), and the demo's calls are made there.
     */
    workers?: {
      startSession(leg: CallLeg, options: StartCallOptions): CallSession | null;
      up(timeoutMs: number): Promise<boolean>;
      run<K extends "demoCalls" | "scenarioCall">(
        kind: K,
        input: WorkerTasks[K]["input"],
      ): Promise<{ result: WorkerTasks[K]["result"] } | { failed: string }> | null;
    };
  },
) {
  const db = context.database.db;
  const conversations = createConversationsRepository(db);
  const vad =
    deps.providers?.vad ??
    vadWithFallback(webrtcVad(), energyVad(), (err) =>
      context.log.error({ err }, "the WebRTC VAD could not start: calls use the energy detector"),
    );
  const stt = deps.providers?.stt ?? sttFromConfig(context.config.speech.stt, context.config.voice.childNice);
  const tts = deps.providers?.tts ?? ttsFromConfig(context.config.speech.tts, context.config.voice.childNice);
  /** What keeps calls from being answered here (a speech tool missing), else null. */
  const speechMissing = () => [stt.unavailable(), tts.unavailable()].filter(Boolean).join(" ") || null;
  const missing = speechMissing();
  if (missing) context.log.warn(`voice calls cannot be answered: ${missing}`);
  const voiceRepository = createVoiceRepository(db);
  let transferDialer: TransferDialer | null = null;
  const sessionDeps = {
    turns: deps.runtime.turns,
    lookups: createAgentLookups({
      agents: deps.agents,
      access: context.access,
      conversations,
      models: deps.runtime.models,
      log: context.log,
    }),
    conversations,
    voice: voiceRepository,
    loadAccount: context.access.loadAccount,
    vad,
    stt,
    tts,
    storage: context.storage,
    log: context.log,
    dialTransfer: ((input) =>
      transferDialer
        ? transferDialer(input)
        : Promise.resolve({
            kind: "failed" as const,
            reason: "no outbound calls from this server",
          })) as TransferDialer,
  };
  const active = new Set<CallSession>();
  const liveCalls = createLiveCalls({
    db,
    realtime: deps.realtime,
    notifications: context.notifications,
    log: context.log,
  });

  /** Runs one call on the leg until either side hangs up; the stable entry point of every transport. */
  function startCall(leg: CallLeg, options: StartCallOptions): CallSession {
    const live = liveCalls.observe(options);
    const session = startCallSession(leg, live.options, sessionDeps);
    live.attach(session);
    active.add(session);
    deps.onCall?.(
      {
        callId: leg.info.callId,
        agentAccountId: options.agentAccountId,
        direction: options.direction ?? "inbound",
        from: leg.info.from,
        to: leg.info.to,
        startedAt: new Date().toISOString(),
      },
      session.ended,
    );
    void session.ended.then((summary) => {
      active.delete(session);
      // The call's log row is final: its analysis is queued (never throws).
      return deps.runtime.analysis.conversationEnded(summary.conversationUuid);
    });
    if (deps.webhooks) emitCallEvents(session, { conversations, events: deps.webhooks, log: context.log });
    return session;
  }

  /** A call whose transport ends here (a WebSocket): its pipeline in a voice worker when one is up. */
  const startNearest = (leg: CallLeg, options: StartCallOptions): CallSession =>
    deps.workers?.startSession(leg, options) ?? startCall(leg, options);

  const usage = createUsageRepository(db);
  // The demo's calls stop when the module does (a voice worker closing hangs them up).
  const stopping = new AbortController();
  /** The simulated callers' voice (Festival's, which the recogniser hears best). */
  const callerTts = festivalTts({ nice: context.config.voice.childNice });
  async function demoCalls(agentUsername: string, signal?: AbortSignal): Promise<{ calls: number }> {
    const summaries = await makeDemoCalls(
      {
        voice: voiceRepository,
        chargeFrom: usage.chargeFrom,
        callerTts,
        tts,
        unavailable: speechMissing,
        startCall,
        log: context.log,
      },
      agentUsername,
      signal ? AbortSignal.any([signal, stopping.signal]) : stopping.signal,
    );
    return { calls: summaries.length };
  }
  /** A test scenario's call, made here (a voice worker's task). */
  const scenarioCall = (input: ScenarioCallInput, signal?: AbortSignal): Promise<ScenarioCallResult> =>
    makeScenarioCall(
      {
        callerTts: callerTts.unavailable() ? tts : callerTts,
        unavailable: speechMissing,
        startCall,
        personaMind: async (agentAccountId, persona) => {
          const agent = await context.access.loadAccount(agentAccountId);
          const resolved = agent?.organizationId
            ? await sessionDeps.lookups.modelOrNull(agent.organizationId)
            : null;
          return resolved?.model && resolved.model.provider !== "sandbox"
            ? modelPersonaCaller(resolved.model, persona)
            : sandboxPersonaCaller(persona);
        },
      },
      input,
      signal ? AbortSignal.any([signal, stopping.signal]) : stopping.signal,
    );
  /** A test scenario's call, in a voice worker when one is up, else here. */
  async function runScenarioCall(
    input: ScenarioCallInput,
    signal?: AbortSignal,
  ): Promise<ScenarioCallResult> {
    const remote = deps.workers?.run("scenarioCall", input);
    if (!remote) return scenarioCall(input, signal);
    const ended = await remote;
    if ("failed" in ended) throw new Error(ended.failed);
    return ended.result;
  }
  context.jobs.register(demoCallsJob, async ({ agentUsername }, attempt) => {
    // Queued as the server starts: its workers may still be starting.
    const remote = (await deps.workers?.up(WORKER_START_WAIT_MS))
      ? deps.workers?.run("demoCalls", { agentUsername })
      : null;
    if (!remote) return void (await demoCalls(agentUsername, attempt.signal));
    const ended = await remote;
    if ("failed" in ended) throw new Error(ended.failed);
  });

  return {
    // The browser test call (a WebSocket); SIP listens on its own port (sip/).
    routes: [
      ...voiceRoutes({
        agents: deps.agents,
        conversations,
        voice: voiceRepository,
        startCallSession: startNearest,
        previewVoice: createVoicePreviews(tts),
        liveCalls,
        recognition: stt,
        publicCallAgent:
          deps.publicCallAgent ??
          (() => Promise.reject(new ApiError(404, "Calls from public pages are not available."))),
      }),
      ...twilioVoiceRoutes({
        app: context,
        voice: voiceRepository,
        startCallSession: startNearest,
        calls: context.config.voice.twilioRest ? twilioCalls(context.config.voice.twilioRest) : null,
      }),
    ],
    providers: { vad, stt, tts },
    startCallSession: startCall,
    /** The demo's simulated calls to an agent, made here (a voice worker's task). */
    demoCalls,
    scenarioCall,
    runScenarioCall,
    liveCalls,
    /** How transfers reach their destinations (the numbers module's outbound calls). */
    useTransferDialer(dialer: TransferDialer) {
      transferDialer = dialer;
    },
    /** Follows hang-up requests from the other server instances. */
    start: () => liveCalls.start(),
    /** Ends the calls in progress (storing their ends) and stops warm processes. */
    async stop() {
      stopping.abort();
      const ending = [...active].map((session) => {
        session.hangup("server shutting down");
        return session.ended;
      });
      await Promise.all(ending);
      liveCalls.stop();
      stt.close();
      tts.close?.();
    },
  };
}

export type VoiceModule = ReturnType<typeof createVoiceModule>;

declare module "fastify" {
  interface FastifyInstance {
    /** Calls: transports and tests start call sessions here. */
    voice: VoiceModule;
  }
}
