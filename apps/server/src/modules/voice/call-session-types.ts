/**
 * The call pipeline's types: what callers of `startCallSession` see (re-exported by call-session.ts), and
 * the thin shell one call's stages share (`CallShell`, built by call-session.ts; the stages: call-stages.ts).
 */
import type { Stage } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { AccountRow } from "../../access/access.ts";
import type { ResolvedModel } from "../../providers/llm/language-model.ts";
import type { StorageProvider } from "../../providers/storage/storage-provider.ts";
import type { SttProvider } from "../../providers/stt/stt-provider.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import type { VadProvider } from "../../providers/vad/vad-provider.ts";
import type { ConversationsRepository } from "../conversations/index.ts";
import type { AgentLookups, AgentTurns, TurnSubject } from "../runtime/index.ts";
import type { CallLeg, TransferResult } from "./call-leg.ts";
import type { CallRecorder } from "./call-recording.ts";
import type { CallSettings } from "./call-settings.ts";
import type { TurnTiming } from "./caller-hearing.ts";
import type { VoiceRepository } from "./voice.repository.ts";

export type { TurnTiming };

export type CallOutcome =
  | "caller-hangup"
  | "agent-ended"
  | "idle"
  | "max-length"
  | "failed"
  /** The caller was handed to a transfer destination (call-transfer.ts) and the call ended there. */
  | "transferred";

export type StartCallOptions = {
  agentAccountId: number;
  /** Which copy of the agent answers: `production` (default, the published agent) or `staging`. */
  stage?: Stage;
  /** `test` for the agent editor's test call; `live` (default) for callers. */
  roomKind?: "test" | "live";
  /**
   * `outbound` when the agent placed the call (modules/numbers/outbound-calls.ts): the callee is the leg's
   * `to`. Default `inbound`.
   */
  direction?: "inbound" | "outbound";
  /**
   * A fixed line the agent says instead of its greeting, after which it hangs up (the voicemail message an
   * outbound call leaves after the beep). Stored as the agent's message; nothing the far end says is heard.
   */
  message?: string;
  /**
   * Values for the agent's {placeholders} on this call (an outbound task's columns), over the agent's own
   * variables, in its instructions and greeting.
   */
  variables?: Record<string, string>;
  /** More fields for the call's log row (an outbound call's id, its answering-machine decision). */
  logData?: () => Record<string, unknown>;
  /** Overrides of the agent's call settings (tests, benchmarks). */
  settings?: Partial<CallSettings>;
  /**
   * Observes what is said, for live captions: each recognised caller turn (final), and the agent's text as
   * its sentences go to speech (`final` false, growing), then once more final when that speech is over (cut
   * to what the caller heard after a barge-in), and a transfer destination's words where its line tells
   * them (`destination`, final). Optional; an observer that throws does not affect the call.
   */
  onTranscript?: (role: "caller" | "agent" | "destination", text: string, final: boolean) => void;
};

export type CallSummary = {
  outcome: CallOutcome;
  conversationUuid: string | null;
  error: string | null;
  turns: TurnTiming[];
  bargeIns: number;
  /** Where the call's recording is (agents that record calls), else null. */
  recordingUrl: string | null;
};

export type CallSession = {
  /** The conversation's uuid once the call is set up (null when it could not be). */
  readonly ready: Promise<string | null>;
  readonly ended: Promise<CallSummary>;
  /** Ends the call from our side. */
  hangup(reason?: string): void;
};

export type CallSessionDeps = {
  turns: AgentTurns;
  lookups: AgentLookups;
  conversations: ConversationsRepository;
  voice: VoiceRepository;
  loadAccount: (id: number) => Promise<AccountRow | null>;
  vad: VadProvider;
  stt: SttProvider;
  tts: TtsProvider;
  /** Where recordings go (agents that record calls); without it nothing is recorded. */
  storage: StorageProvider | null;
  log: FastifyBaseLogger;
  /** A new call to a transfer destination (the numbers module's outbound route); absent: none here. */
  dialTransfer?: TransferDialer;
};

/** What dialling a transfer destination gave: its leg once answered, or why not. */
export type TransferDial =
  | { kind: "answered"; leg: CallLeg }
  | { kind: "busy" | "no_answer" | "failed"; reason: string };

export type TransferDialer = (input: {
  organizationId: number;
  agentAccountId: number;
  /** E.164 or a SIP URI. */
  to: string;
  from: string | null;
  ringSeconds: number;
  signal: AbortSignal;
  /** The destination is ringing (a 180, or the sandbox carrier's simulated ring). */
  onRinging?: () => void;
}) => Promise<TransferDial>;

/** One leg of a transfer as the call's log row keeps it. */
export type TransferLeg = {
  /**
   * `refer`: the far end was asked to call (SIP REFER); `handover`: the carrier did (Twilio <Dial>); `dial`:
   * we called (its times from the agent's decision, the others' from the transfer's start).
   */
  kind: "refer" | "handover" | "dial";
  to: string;
  result: TransferResult | "refused";
  status: number | null;
  detail: string;
  /** From the transfer's start, ms. */
  ringingMs: number | null;
  answeredMs: number | null;
  endedMs: number | null;
};

/** A transfer of the call: what was asked, its legs, timing and result (the log row's `transfers`). */
export type TransferRecord = {
  destination: string;
  to: string;
  mode: "cold" | "warm";
  reason: string | null;
  at: string;
  legs: TransferLeg[];
  result: TransferResult | null;
  /** The transfer's start (the agent's words said) to the destination ringing (or a REFER's answer), ms. */
  setupMs: number | null;
  /** The agent's decision (its transferCall accepted) to the destination ringing, ms: setupMs plus its words. */
  decisionMs: number | null;
  /**
   * The agent's decision to the caller connected to the person, ms (bridged transfers): the whole wait a
   * caller has, a warm transfer's summary to the person included.
   */
  connectedMs: number | null;
  /** How long the caller and the destination were connected, seconds (bridged transfers). */
  bridgedSeconds: number | null;
};

/**
 * The thin shell of one call that its stages share (the stages' own state is theirs: call-stages.ts): the
 * leg, what set-up found (agent, settings, model, voice), whether the call is over, and its ends.
 */
export type CallShell = {
  /** The transport's leg, wrapped so that audio both ways reaches the recorder. */
  leg: CallLeg;
  /** The transport's own leg (not wrapped for the recording): its keys out and hand-over (transfers). */
  transport: CallLeg;
  /** The call's recording while it is made (agents that record calls). */
  recorder: CallRecorder | null;
  options: StartCallOptions;
  deps: CallSessionDeps;
  log: FastifyBaseLogger;
  /** performance.now() when the call began. */
  started: number;

  // Set up once the agent is known (call-setup.ts).
  subject: TurnSubject | null;
  model: ResolvedModel | null;
  settings: CallSettings;
  /** The campaign's TTS voice. */
  voice: string | null;

  /** The call is over (call-end.ts): nothing more is heard or said. */
  finished: boolean;
  /** No more caller turns (a goodbye at the time limit, a voicemail message, a transfer under way). */
  closing: boolean;
  /** Whether anyone watches the captions (`onTranscript`). */
  captions: boolean;
  /** A caption for the `onTranscript` observer (call-captions.ts). */
  caption(role: "caller" | "agent" | "destination", text: string, final: boolean): void;
  /** Ends the call (call-end.ts): `hangup` false when the far end already hung up. */
  end(outcome: CallOutcome, error?: string | null, hangup?: boolean): void;
  /** Something in the call's code failed that should not have (call-guard.ts): logged, the call ended. */
  unexpected: (error: unknown, where: string) => void;
  resolveReady: (uuid: string | null) => void;
  resolveEnded: (summary: CallSummary) => void;
  /** The end's work (its log row), once the call ends. */
  finishing: Promise<void> | null;
};
