import type { AppContext } from "../../app-context.ts";
import { pocketsphinxStt } from "../../providers/stt/pocketsphinx.ts";
import type { SttProvider } from "../../providers/stt/stt-provider.ts";
import { espeakTts } from "../../providers/tts/espeak-ng.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import type { VadProvider } from "../../providers/vad/vad-provider.ts";
import { webrtcVad } from "../../providers/vad/webrtc-vad.ts";
import type { AgentsService } from "../agents/agents.service.ts";
import { createAgentLookups } from "../runtime/agent-lookups.ts";
import { createConversationsRepository } from "../runtime/conversations.repository.ts";
import type { RuntimeModule } from "../runtime/runtime.module.ts";
import type { WebhookEvents } from "../webhooks/webhooks.service.ts";
import { emitCallEvents } from "./call-events.ts";
import type { CallLeg } from "./call-leg.ts";
import { type CallSession, type StartCallOptions, startCallSession } from "./call-session.ts";
import { createVoiceRepository } from "./voice.repository.ts";
import { voiceRoutes } from "./voice.routes.ts";

/**
 * Wires calls: the speech providers (offline defaults: WebRTC VAD, pocketsphinx, espeak-ng) and the call
 * pipeline over the runtime's agent turns. Transports (SIP, browser, Twilio) hand each answered call's leg to
 * `startCallSession(leg, { agentAccountId })`.
 */
export function createVoiceModule(
  context: AppContext,
  deps: {
    agents: AgentsService;
    runtime: RuntimeModule;
    /** Where call.started / call.ended go (the organisation's webhooks). */
    webhooks?: Pick<WebhookEvents, "emit">;
    providers?: { vad?: VadProvider; stt?: SttProvider; tts?: TtsProvider };
  },
) {
  const db = context.database.db;
  const conversations = createConversationsRepository(db);
  const vad = deps.providers?.vad ?? webrtcVad();
  const stt = deps.providers?.stt ?? pocketsphinxStt();
  const tts = deps.providers?.tts ?? espeakTts();
  const missing = [stt.unavailable(), tts.unavailable()].filter(Boolean);
  if (missing.length > 0) context.log.warn(`voice calls cannot be answered: ${missing.join(" ")}`);
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
    voice: createVoiceRepository(db),
    loadAccount: context.access.loadAccount,
    vad,
    stt,
    tts,
    log: context.log,
  };
  const active = new Set<CallSession>();

  /** Runs one call on the leg until either side hangs up; the stable entry point of every transport. */
  function startCall(leg: CallLeg, options: StartCallOptions): CallSession {
    const session = startCallSession(leg, options, sessionDeps);
    active.add(session);
    void session.ended.then(() => active.delete(session));
    if (deps.webhooks) emitCallEvents(session, { conversations, events: deps.webhooks, log: context.log });
    return session;
  }

  return {
    // The browser test call (a WebSocket); SIP listens on its own port (sip/).
    routes: voiceRoutes({ agents: deps.agents, conversations, startCallSession: startCall }),
    providers: { vad, stt, tts },
    startCallSession: startCall,
    /** Ends the calls in progress (storing their ends) and stops warm processes. */
    async stop() {
      const ending = [...active].map((session) => {
        session.hangup("server shutting down");
        return session.ended;
      });
      await Promise.all(ending);
      stt.close();
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
