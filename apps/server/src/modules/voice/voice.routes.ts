import * as api from "@switchboard/api";
import { tokenOf } from "../../access/access.ts";
import { ApiError } from "../../api-error.ts";
import { handle } from "../../http/routes.ts";
import type { AgentsService } from "../agents/index.ts";
import type { ConversationsRepository } from "../conversations/index.ts";
import { runBrowserCall, type StartCall } from "./browser-call.ts";
import { NARROWBAND_WARNING } from "./call-end.ts";
import { callSettingsOf } from "./call-settings.ts";
import type { LiveCalls } from "./live-calls.ts";
import type { VoiceRepository } from "./voice.repository.ts";

/**
 * The browser test call (`voiceCall`): the socket becomes a call leg, the agent (below the caller's target,
 * canEditOrg) answers it through the same pipeline as SIP calls, and the browser gets `ready`, live
 * captions, `clear` on barge-in and `ended`. A refusal after the upgrade (an agent that is not the
 * caller's, missing speech tools, no model) is an `ended` message with the reason, then a normal close.
 */
export function voiceRoutes(deps: {
  agents: AgentsService;
  conversations: ConversationsRepository;
  voice: VoiceRepository;
  startCallSession: StartCall;
  /**
   * The agent a public page's visitor talks to (its username and the visitor's session token), and the
   * caller's address; refuses with the reason the visitor reads.
   */
  publicCallAgent: (
    username: string,
    token: string | undefined,
  ) => Promise<{ agentAccountId: number; from: string }>;
  /** A voice's sample as a WAV (voice-preview.ts). */
  previewVoice: (voiceId: string, text?: string) => Promise<Uint8Array>;
  liveCalls: Pick<LiveCalls, "list" | "hangup">;
  /** The speech recognition calls use: its name, and whether it hears 8 kHz phone audio. */
  recognition: { name: string; hearsNarrowband: boolean };
}) {
  const fields = (agentId: number, details: unknown) => {
    const all = callSettingsOf({ callSettings: details });
    return {
      success: true as const,
      agentId,
      settings: {
        endpointSilenceMs: all.endpointSilenceMs,
        bargeInMinSpeechMs: all.bargeInMinSpeechMs,
        recordCalls: all.recordCalls,
        recordingNotice: all.recordingNotice,
        transferDestinations: all.transferDestinations,
      },
    };
  };
  return [
    handle(api.getSpeechStatus, async () => ({
      success: true as const,
      recognition: { provider: deps.recognition.name, hearsPhoneAudio: deps.recognition.hearsNarrowband },
      warning: deps.recognition.hearsNarrowband ? null : NARROWBAND_WARNING,
    })),
    handle(api.listLiveCalls, async (_input, { access }) => ({
      success: true as const,
      calls: await deps.liveCalls.list(access),
    })),
    handle(api.hangUpLiveCall, async ({ params }, { access }) => ({
      success: true as const,
      message: await deps.liveCalls.hangup(access, params.uuid),
    })),
    handle(api.previewVoice, async ({ query }, { reply }) => {
      const wav = await deps.previewVoice(query.voice, query.text);
      return reply
        .header("cache-control", "private, max-age=3600")
        .type("audio/wav")
        .send(Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength));
    }),
    handle(api.getCallSettings, async ({ query }, { access }) => {
      const { account } = await deps.agents.resolveAgent(access, query.agentId, "canViewOrg");
      return fields(account.id, (account.details as { callSettings?: unknown }).callSettings);
    }),
    handle(api.saveCallSettings, async ({ body }, { access }) => {
      const { agentId, ...changes } = body;
      const { account } = await deps.agents.resolveAgent(access, agentId, "canEditOrg");
      return fields(account.id, await deps.voice.saveCallSettings(account.id, changes));
    }),
    handle(api.voiceCall, async ({ query }, { access, socket, request }) => {
      if (!socket) throw new ApiError(426, api.VOICE_MESSAGES.webSocketOnly);
      const { user } = access.caller;
      await runBrowserCall(
        socket,
        request.log,
        {
          from: user.email ?? `user ${user.id}`,
          to: `agent ${query.agentId ?? access.target.id}`,
          answer: async () => ({
            agentAccountId: (await deps.agents.resolveAgent(access, query.agentId, "canEditOrg")).account.id,
            stage: query.stage,
            roomKind: "test",
          }),
        },
        deps,
      );
    }),
    handle(api.publicVoiceCall, async ({ params, query }, { socket, request }) => {
      if (!socket) throw new ApiError(426, api.VOICE_MESSAGES.webSocketOnly);
      await runBrowserCall(
        socket,
        request.log,
        {
          from: "web visitor",
          to: params.username,
          answer: async () => ({
            // ?token= as the catalogue has it, or the subprotocol the public page offers (no token in its address).
            ...(await deps.publicCallAgent(params.username, query.token ?? tokenOf(request))),
            stage: "production",
            roomKind: "live",
          }),
        },
        deps,
      );
    }),
  ];
}
