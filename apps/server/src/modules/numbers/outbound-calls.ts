/**
 * Outbound calls: the agent places a call and talks with whoever answers. Other features (Tasks) use
 * `place(...)`, which resolves when the call has ended:
 *
 *   place({ organizationId, agentAccountId, to, from?, variables?, taskId? })
 *     → { callId, outcome: "answered" | "voicemail" | "no_answer" | "busy" | "failed",
 *         answeredBy?: "person" | "machine", amdDecisionMs?, conversation?: { roomId, uuid },
 *         durationSeconds, error? }
 *
 * Routes, first that applies: the organisation's outbound route (a SIP trunk: `resolveTrunk`, set by the
 * SIP developer settings), else the sandbox carrier (a simulated callee in-process, answering as a person or
 * as voicemail as `sandbox_callees` says). Answering-machine detection listens to the callee's first audio
 * and decides person or machine within a few seconds; a person hears the agent at once. On a machine the
 * agent does what its campaign says (`voicemailAction`): `leave_message` — after the beep it says its
 * voicemail message word for word (`voicemailMessage` with the agent's variables and the call's — a task's
 * columns — filled in; its outbound opening when it has none), then hangs up: outcome voicemail; `hang_up` — it
 * hangs up at once: outcome no_answer. The decision and its timing are stored on the call's row and its
 * conversation log row.
 *
 * With voice workers (VOICE_WORKERS) the API process checks and stores the call and a worker dials and
 * carries it (`workers.run("dial", …)`, then `dialStored` in the worker); a call whose worker stopped ends as failed.
 *
 * Toll-fraud guards before dialling: the destination's country must be allowed for the organisation
 * (settings `telephony.allowedCountries`, default the country of its own numbers, else US), and the
 * organisation's calls in progress and calls of the last 24 hours must be under its limits
 * (`telephony.maxConcurrentCalls`, `telephony.maxDailyCalls`, defaults OUTBOUND_CALLS_CONCURRENT and
 * OUTBOUND_CALLS_DAILY). A refused call throws an ApiError (403 or 429) with the catalogue's message.
 */
import { randomBytes } from "node:crypto";
import { type CampaignFields, NUMBER_MESSAGES, type OutboundCall, type PlacedCall } from "@switchboard/api";
import { fillVariables } from "@switchboard/core";
import type { FastifyBaseLogger } from "fastify";
import type { AccountRow } from "../../access/access.ts";
import { ApiError, forbidden } from "../../api-error.ts";
import type { NumbersConfig } from "../../config.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import type { ConversationsRepository } from "../conversations/index.ts";
import type { CallLeg, CallSession, StartCallOptions } from "../voice/index.ts";
import { type AmdOptions, createAnsweringMachineDetector } from "./answering-machine.ts";
import type { NumbersRepository, OutboundCallRow } from "./numbers.repository.ts";
import { answerAsSandboxCallee } from "./sandbox-callee.ts";
import { type DialResult, dialSip, type SipTrunkTarget } from "./sip-uac.ts";

export type PlaceCallInput = {
  organizationId: number;
  agentAccountId: number;
  /** E.164. */
  to: string;
  /** The caller ID: one of the organisation's numbers or a verified one; default the agent's number. */
  from?: string;
  /** Values for the call (stored with it; a task's row). */
  variables?: Record<string, string>;
  taskId?: string;
  /**
   * Answering-machine detection before the agent speaks (default: on, unless the agent can press keys).
   * Off for calls to phone menus, which AMD would take for machines: the agent hears the menu from its
   * first word.
   */
  detectMachine?: boolean;
};

/** Calling code → country (ISO 3166 alpha-2) for the guard; NANP numbers are US unless a Canadian code. */
const CALLING_CODES: [string, string][] = [
  ["44", "GB"],
  ["33", "FR"],
  ["49", "DE"],
  ["34", "ES"],
  ["39", "IT"],
  ["31", "NL"],
  ["61", "AU"],
  ["64", "NZ"],
  ["52", "MX"],
  ["55", "BR"],
  ["91", "IN"],
  ["81", "JP"],
  ["353", "IE"],
  ["27", "ZA"],
];
const CANADIAN_AREA_CODES = new Set(
  "204 226 236 249 250 263 289 306 343 354 365 367 368 382 403 416 418 428 431 437 438 450 468 474 506 514 519 548 579 581 584 587 604 613 639 647 672 683 705 709 742 753 778 780 782 807 819 825 867 873 879 902 905".split(
    " ",
  ),
);

/** The country of an E.164 number, or null when it is not known here. */
export function countryOfNumber(number: string): string | null {
  const digits = number.replace(/^\+/, "");
  if (digits.startsWith("1") && digits.length === 11)
    return CANADIAN_AREA_CODES.has(digits.slice(1, 4)) ? "CA" : "US";
  const match = [...CALLING_CODES]
    .sort((a, b) => b[0].length - a[0].length)
    .find(([code]) => digits.startsWith(code));
  return match?.[1] ?? null;
}

export type TelephonySettings = {
  allowedCountries?: string[];
  maxConcurrentCalls?: number;
  maxDailyCalls?: number;
};

export function telephonySettingsOf(org: AccountRow): TelephonySettings {
  const value = (org.settings as Record<string, unknown>).telephony;
  return value && typeof value === "object" ? (value as TelephonySettings) : {};
}

/** What dialling gave: the callee's leg once answered, or why not. */
type Dialed = { kind: "answered"; leg: CallLeg } | Exclude<DialResult, { kind: "answered" }>;

const newCallId = () => `OC${randomBytes(12).toString("hex")}`;

export function toOutboundCall(row: OutboundCallRow): OutboundCall {
  return {
    callId: row.id,
    agentId: row.agentAccountId,
    to: row.toNumber,
    from: row.fromNumber,
    taskId: row.taskId,
    route: row.route,
    status: row.status,
    outcome: row.outcome,
    answeredBy: row.answeredBy,
    amdDecisionMs: row.amdDecisionMs,
    conversation:
      row.roomId && row.conversationUuid ? { roomId: row.roomId, uuid: row.conversationUuid } : null,
    durationSeconds: row.durationSeconds,
    error: row.error,
    createdAt: row.createdAt.getTime(),
  };
}

/** How a stored call ended, as `place` answers. */
function placedCallOf(row: OutboundCallRow): PlacedCall {
  return {
    callId: row.id,
    outcome: row.outcome ?? "failed",
    ...(row.answeredBy ? { answeredBy: row.answeredBy } : {}),
    ...(row.amdDecisionMs !== null ? { amdDecisionMs: row.amdDecisionMs } : {}),
    ...(row.roomId && row.conversationUuid
      ? { conversation: { roomId: row.roomId, uuid: row.conversationUuid } }
      : {}),
    durationSeconds: row.durationSeconds ?? 0,
    ...(row.error ? { error: row.error } : {}),
  };
}

export type OutboundCallsDeps = {
  repo: NumbersRepository;
  conversations: ConversationsRepository;
  loadAccount: (id: number) => Promise<AccountRow | null>;
  startCallSession: (leg: CallLeg, options: StartCallOptions) => CallSession;
  tts: TtsProvider;
  config: NumbersConfig;
  log: FastifyBaseLogger;
  /** The organisation's outbound route as a SIP trunk (SIP developer settings), or null. */
  resolveTrunk?: (organizationId: number, to: string) => Promise<SipTrunkTarget | null>;
  /** Our address for a trunk's replies and media (HOST; loopback when it listens everywhere). */
  localHost: string;
  /** Caller IDs the organisation verified (validateVerifiedNumber). */
  isVerifiedCallerId: (organizationId: number, number: string) => Promise<boolean>;
  amd?: Partial<AmdOptions>;
  /** The campaign that places the agent's calls (production, else staging): its voicemail settings. */
  campaignOf?: (agent: { id: number; orgId: number }) => Promise<CampaignFields | null>;
  /** Sandbox carrier: how long an unanswered sandbox call rings (no_answer). */
  sandboxRingMs?: number;
  /**
   * A SIP URI's host as the address to call (the check trunks get: private addresses only with
   * OUTBOUND_ALLOWLIST); transfers to SIP URIs need it.
   */
  resolveSipHost?: (host: string, port: number) => Promise<string>;
  /**
   * The voice workers (modules/voice/workers): a stored call is dialled and carried by one of them, which
   * answers how it ended (or why it failed: the worker stopped first); null when none is up (dialled here).
   */
  workers?: {
    run(
      kind: "dial",
      input: { callId: string; detect: boolean },
    ): Promise<{ result: PlacedCall } | { failed: string }> | null;
  };
};

/** A transfer destination's new leg (voice/call-transfer.ts): answered with its leg, or why not. */
export type TransferDialInput = {
  organizationId: number;
  agentAccountId: number;
  to: string;
  from: string | null;
  ringSeconds: number;
  signal: AbortSignal;
  onRinging?: () => void;
};
export type TransferDialResult =
  | { kind: "answered"; leg: CallLeg }
  | { kind: "busy" | "no_answer" | "failed"; reason: string };

/** `sip:user@host[:port][;params]` → its parts, or null. */
export function parseSipUriTarget(uri: string): { user: string; host: string; port: number } | null {
  const match = /^sips?:([^@;]+)@(\[[^\]]+\]|[^:;>]+)(?::(\d{1,5}))?/i.exec(uri.trim());
  if (!match) return null;
  const port = match[3] ? Number(match[3]) : 5060;
  if (port < 1 || port > 65_535) return null;
  return { user: match[1] as string, host: (match[2] as string).replace(/^\[|\]$/g, ""), port };
}

export function createOutboundCalls(deps: OutboundCallsDeps) {
  const { repo, log } = deps;
  const active = new Set<{ hangup(): void; done: Promise<unknown> }>();
  let setTrunkResolver = deps.resolveTrunk;
  let resolveSipHost = deps.resolveSipHost;

  async function guard(org: AccountRow, agent: AccountRow, to: string) {
    const settings = telephonySettingsOf(org);
    const own = agent.switchboardPhoneNumber ? countryOfNumber(agent.switchboardPhoneNumber) : null;
    const allowed = settings.allowedCountries?.length ? settings.allowedCountries : [own ?? "US"];
    const country = countryOfNumber(to);
    if (!allowed.includes("*") && (!country || !allowed.includes(country)))
      throw forbidden(NUMBER_MESSAGES.countryNotAllowed);
    const concurrent = settings.maxConcurrentCalls ?? deps.config.outboundConcurrent;
    if ((await repo.countLive(org.id)) >= concurrent)
      throw new ApiError(429, NUMBER_MESSAGES.concurrentLimit);
    const daily = settings.maxDailyCalls ?? deps.config.outboundDaily;
    if ((await repo.countSince(org.id, new Date(Date.now() - 24 * 3600 * 1000))) >= daily)
      throw new ApiError(429, NUMBER_MESSAGES.dailyLimit);
  }

  async function callerId(input: PlaceCallInput, agent: AccountRow): Promise<string | null> {
    if (input.from && input.from !== agent.switchboardPhoneNumber) {
      const row = await repo.findLive(input.from);
      const ours = row?.orgId === input.organizationId;
      if (!ours && !(await deps.isVerifiedCallerId(input.organizationId, input.from)))
        throw forbidden(NUMBER_MESSAGES.noCallerId);
      return input.from;
    }
    return agent.switchboardPhoneNumber ?? null;
  }

  /** Dials through the route that applies; the sandbox carrier answers in-process. */
  async function dial(
    row: OutboundCallRow,
    trunk: SipTrunkTarget | null,
    signal: AbortSignal,
  ): Promise<Dialed> {
    if (trunk)
      return dialSip({
        target: trunk,
        to: row.toNumber,
        from: row.fromNumber,
        localHost: deps.localHost,
        signal,
      });
    const callee = await repo.findCallee(row.orgId, row.toNumber);
    const behaviour = callee?.behaviour ?? "person";
    if (behaviour === "busy") return { kind: "busy", status: 486, reason: "486 Busy Here (sandbox callee)" };
    if (behaviour === "no_answer") {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deps.sandboxRingMs ?? 30_000);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return { kind: "no_answer", status: 480, reason: "no answer (sandbox callee)" };
    }
    const answered = await answerAsSandboxCallee({
      tts: deps.tts,
      behaviour,
      says: callee?.says ?? null,
      from: row.fromNumber ?? "anonymous",
      to: row.toNumber,
    });
    return { kind: "answered", leg: answered.leg };
  }

  /**
   * Listens to the callee before the agent speaks: answering-machine detection, and for a machine the wait
   * for its beep (or the end of its greeting). The leg the agent gets hears only what comes after.
   */
  function screen(leg: CallLeg, detect = true) {
    const amd = createAnsweringMachineDetector(deps.amd);
    const listeners = { audio: [] as ((f: Int16Array) => void)[] };
    let passing = false;
    let lastFrameAt = Date.now();
    let resolveReady!: (value: { answeredBy: "person" | "machine"; atMs: number } | null) => void;
    const ready = new Promise<{ answeredBy: "person" | "machine"; atMs: number } | null>((resolve) => {
      resolveReady = resolve;
    });
    const started = Date.now();
    let hungUp = false;
    const check = () => {
      const decision = amd.decision;
      if (!decision) return;
      if (decision.answeredBy === "person") return open(decision.atMs);
      // A machine: leave the message after the beep, or after its greeting ended (1.5 s quiet), or 20 s.
      if (amd.beepAtMs !== null && amd.silenceMs >= 200) return open(decision.atMs);
      if (amd.beepAtMs === null && amd.silenceMs >= 1500) return open(decision.atMs);
      if (Date.now() - started > 20_000) return open(decision.atMs);
    };
    const open = (atMs: number) => {
      if (passing) return;
      passing = true;
      clearInterval(idle);
      resolveReady({ answeredBy: amd.decision?.answeredBy ?? "person", atMs });
    };
    leg.onAudio((frame) => {
      lastFrameAt = Date.now();
      if (passing) {
        for (const listener of listeners.audio) listener(frame);
        return;
      }
      amd.push(frame);
      check();
    });
    // No audio at all (no RTP from the far end) counts as silence; judged after the socket reads waiting
    // meanwhile (setImmediate runs after them), so a stall of this process is not taken for the far end's.
    const idle = setInterval(
      () =>
        setImmediate(() => {
          if (passing || hungUp) return;
          const gap = Date.now() - lastFrameAt;
          if (gap >= 100) {
            amd.silence(Math.floor(gap / 20) * 20);
            lastFrameAt = Date.now();
          }
          check();
        }),
      100,
    );
    leg.onHangup(() => {
      hungUp = true;
      clearInterval(idle);
      resolveReady(null);
    });
    if (!detect) open(0);
    const agentLeg: CallLeg = {
      info: leg.info,
      onAudio: (listener) => void listeners.audio.push(listener),
      onDtmf: (listener) => leg.onDtmf(listener),
      onHangup: (listener) => leg.onHangup(listener),
      sendAudio: (frame) => leg.sendAudio(frame),
      clearAudio: () => leg.clearAudio(),
      queuedFrames: () => leg.queuedFrames(),
      hangup: (reason) => leg.hangup(reason),
      ...(leg.sendDtmf
        ? { sendDtmf: (digits: string) => leg.sendDtmf?.(digits) ?? Promise.resolve(false) }
        : {}),
      ...(leg.onSaid ? { onSaid: (listener: (text: string) => void) => leg.onSaid?.(listener) } : {}),
    };
    return {
      ready,
      agentLeg,
      stop: () => clearInterval(idle),
      get hungUp() {
        return hungUp;
      },
    };
  }

  /**
   * Whether the agent can press keys (the Keypad app's sendDtmf): such an agent walks phone menus, which
   * answering-machine detection takes for voicemail (a long greeting), so its calls skip detection unless
   * asked for it and the agent hears the far end from its first word.
   */
  async function pressesKeys(agent: { id: number; orgId: number }): Promise<boolean> {
    const campaign = await deps.campaignOf?.(agent);
    return Object.values(campaign?.enabledFunctions ?? {}).some((names) => names.includes("sendDtmf"));
  }

  /** What the agent does on a voicemail: hang up, or the message it leaves (null: its outbound opening). */
  async function voicemailOf(
    row: OutboundCallRow,
  ): Promise<{ action: "hang_up" } | { action: "leave_message"; message: string | null }> {
    const campaign = await deps.campaignOf?.({ id: row.agentAccountId, orgId: row.orgId });
    if (!campaign) return { action: "leave_message", message: null };
    if (campaign.voicemailAction === "hang_up") return { action: "hang_up" };
    const template = campaign.voicemailMessage?.trim() || "";
    const values = { ...(campaign.variables ?? {}), ...((row.variables as Record<string, string>) ?? {}) };
    return { action: "leave_message", message: fillVariables(template, values).trim() || null };
  }

  async function run(
    row: OutboundCallRow,
    trunk: SipTrunkTarget | null,
    handle: { hangup(): void; done: Promise<unknown> },
    signal: AbortSignal,
    detect = true,
  ): Promise<PlacedCall> {
    const result: PlacedCall = { callId: row.id, outcome: "failed", durationSeconds: 0 };
    const finish = async (patch: Partial<PlacedCall>) => {
      Object.assign(result, patch);
      await repo.updateCall(row.id, {
        status: "completed",
        outcome: result.outcome,
        answeredBy: result.answeredBy ?? null,
        amdDecisionMs: result.amdDecisionMs ?? null,
        durationSeconds: Math.round(result.durationSeconds),
        conversationUuid: result.conversation?.uuid ?? null,
        roomId: result.conversation?.roomId ?? null,
        error: result.error ?? null,
        endedAt: new Date(),
      });
      log.info(
        { callId: row.id, outcome: result.outcome, answeredBy: result.answeredBy },
        "outbound call ended",
      );
      return result;
    };
    let dialed: Dialed;
    try {
      dialed = await dial(row, trunk, signal);
    } catch (error) {
      return finish({ outcome: "failed", error: error instanceof Error ? error.message : String(error) });
    }
    if (dialed.kind !== "answered")
      return finish({ outcome: dialed.kind, error: dialed.kind === "failed" ? dialed.reason : undefined });
    const answeredAt = Date.now();
    await repo.updateCall(row.id, { status: "in-progress" });
    const leg = dialed.leg;
    const screening = screen(leg, detect);
    handle.hangup = () => leg.hangup("server shutting down");
    try {
      const decision = await screening.ready;
      if (!decision) {
        // The callee hung up before anyone spoke.
        return await finish({ outcome: "answered", durationSeconds: (Date.now() - answeredAt) / 1000 });
      }
      const machine = decision.answeredBy === "machine";
      await repo.updateCall(row.id, { answeredBy: decision.answeredBy, amdDecisionMs: decision.atMs });
      const voicemail = machine ? await voicemailOf(row) : null;
      if (voicemail?.action === "hang_up") {
        leg.hangup("voicemail: hung up");
        return await finish({
          outcome: "no_answer",
          answeredBy: "machine",
          amdDecisionMs: decision.atMs,
          durationSeconds: (Date.now() - answeredAt) / 1000,
        });
      }
      const session = deps.startCallSession(screening.agentLeg, {
        agentAccountId: row.agentAccountId,
        stage: "production",
        roomKind: "live",
        direction: "outbound",
        // The call's values (a task's columns) fill the agent's {placeholders}, as a text task's do.
        variables: (row.variables as Record<string, string> | null) ?? {},
        logData: () => ({
          outboundCallId: row.id,
          answeredBy: decision.answeredBy,
          amdDecisionMs: decision.atMs,
          ...(row.taskId ? { taskId: row.taskId } : {}),
        }),
        // On voicemail the agent says its message (it then hangs up), or, without one, its outbound opening.
        ...(voicemail?.message ? { message: voicemail.message } : {}),
        onTranscript:
          machine && !voicemail?.message
            ? (role, _text, final) => {
                if (role === "agent" && final) setTimeout(() => session.hangup("message left"), 300);
              }
            : undefined,
      });
      const uuid = await session.ready;
      const summary = await session.ended;
      const conversation = uuid ? await deps.conversations.findConversation(uuid) : null;
      return await finish({
        outcome: summary.outcome === "failed" ? "failed" : machine ? "voicemail" : "answered",
        answeredBy: decision.answeredBy,
        amdDecisionMs: decision.atMs,
        conversation: uuid && conversation ? { roomId: conversation.roomId, uuid } : undefined,
        durationSeconds: (Date.now() - answeredAt) / 1000,
        error: summary.error ?? undefined,
      });
    } finally {
      screening.stop();
    }
  }

  /** Checks, stores and dials; `done` resolves when the call has ended. */
  async function start(input: PlaceCallInput): Promise<{ call: OutboundCallRow; done: Promise<PlacedCall> }> {
    const [org, agent] = await Promise.all([
      deps.loadAccount(input.organizationId),
      deps.loadAccount(input.agentAccountId),
    ]);
    if (
      org?.accountType !== "organization" ||
      agent?.accountType !== "agent" ||
      agent.organizationId !== org.id
    )
      throw new ApiError(404, "Agent not found");
    if (agent.disabledAt || org.disabledAt) throw forbidden("This account is disabled.");
    await guard(org, agent, input.to);
    const from = await callerId(input, agent);
    const trunk = (await setTrunkResolver?.(org.id, input.to)) ?? null;
    const call = await repo.insertCall({
      id: newCallId(),
      orgId: org.id,
      agentAccountId: agent.id,
      toNumber: input.to,
      fromNumber: from,
      taskId: input.taskId ?? null,
      route: trunk ? `sip:${trunk.host}:${trunk.port}` : "sandbox",
      status: "dialing",
      variables: input.variables ?? {},
    });
    const detect = input.detectMachine ?? !(await pressesKeys({ id: agent.id, orgId: org.id }));
    const remote = deps.workers?.run("dial", { callId: call.id, detect });
    if (remote) {
      // Never rejects, as a call run here (`launch`): the API's route does not wait for it.
      const done = remote.then(async (ended): Promise<PlacedCall> => {
        if ("result" in ended) return ended.result;
        const failed = {
          callId: call.id,
          outcome: "failed" as const,
          durationSeconds: 0,
          error: ended.failed,
        };
        try {
          const row = await repo.failUnendedCall(call.id, ended.failed);
          return row ? placedCallOf(row) : failed;
        } catch (error) {
          log.error({ err: error, callId: call.id }, "could not store the end of an outbound call");
          return failed;
        }
      });
      return { call, done };
    }
    return { call, done: launch(call, trunk, detect) };
  }

  /** Runs a stored call here until it ends; the server hangs it up (or stops dialling) when it stops. */
  function launch(call: OutboundCallRow, trunk: SipTrunkTarget | null, detect: boolean): Promise<PlacedCall> {
    const controller = new AbortController();
    const handle: { hangup(): void; done: Promise<unknown> } = {
      hangup: () => controller.abort(),
      done: Promise.resolve(),
    };
    active.add(handle);
    const done = run(call, trunk, handle, controller.signal, detect).catch(async (error: unknown) => {
      log.error({ err: error, callId: call.id }, "outbound call failed");
      await repo
        .updateCall(call.id, {
          status: "completed",
          outcome: "failed",
          error: String(error),
          endedAt: new Date(),
        })
        .catch(() => {});
      return { callId: call.id, outcome: "failed" as const, durationSeconds: 0, error: String(error) };
    });
    handle.done = done;
    void done.finally(() => active.delete(handle));
    return done;
  }

  /** A voice worker: dials the call the API process stored (`start`) and carries it until it ends. */
  async function dialStored(id: string, detect: boolean): Promise<PlacedCall> {
    const call = await repo.findCallById(id);
    if (!call) return { callId: id, outcome: "failed", durationSeconds: 0, error: "The call is not stored." };
    if (call.status !== "dialing") return placedCallOf(call);
    const trunk = (await setTrunkResolver?.(call.orgId, call.toNumber)) ?? null;
    return launch(call, trunk, detect);
  }

  /** Waits `ms` unless the signal aborts first. */
  const ring = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      });
    });

  /**
   * A new leg to a transfer destination, bridged by the call pipeline: a SIP URI directly (its host checked
   * like a trunk's), a number through the organisation's trunk, else the sandbox carrier's simulated callee.
   * Numbers pass the same toll-fraud guards as outbound calls.
   */
  async function dialTransfer(input: TransferDialInput): Promise<TransferDialResult> {
    const ringMs = input.ringSeconds * 1000;
    const fromDial = (result: DialResult): TransferDialResult =>
      result.kind === "answered"
        ? { kind: "answered", leg: result.leg }
        : { kind: result.kind, reason: result.reason };
    if (/^sips?:/i.test(input.to)) {
      const target = parseSipUriTarget(input.to);
      if (!target) return { kind: "failed", reason: `${input.to} is not a SIP URI` };
      if (!resolveSipHost) return { kind: "failed", reason: "SIP destinations are not available here" };
      let host: string;
      try {
        host = await resolveSipHost(target.host, target.port);
      } catch (error) {
        return { kind: "failed", reason: error instanceof Error ? error.message : String(error) };
      }
      return fromDial(
        await dialSip({
          target: { host, port: target.port, transport: "udp" },
          to: target.user,
          from: input.from,
          localHost: deps.localHost,
          ringTimeoutMs: ringMs,
          signal: input.signal,
          ...(input.onRinging ? { onRinging: input.onRinging } : {}),
        }),
      );
    }
    const [org, agent] = await Promise.all([
      deps.loadAccount(input.organizationId),
      deps.loadAccount(input.agentAccountId),
    ]);
    if (!org || !agent) return { kind: "failed", reason: "the agent or its organisation is gone" };
    try {
      await guard(org, agent, input.to);
    } catch (error) {
      return { kind: "failed", reason: error instanceof Error ? error.message : String(error) };
    }
    const trunk = (await setTrunkResolver?.(org.id, input.to)) ?? null;
    if (trunk)
      return fromDial(
        await dialSip({
          target: trunk,
          to: input.to,
          from: input.from,
          localHost: deps.localHost,
          ringTimeoutMs: ringMs,
          signal: input.signal,
          ...(input.onRinging ? { onRinging: input.onRinging } : {}),
        }),
      );
    // The sandbox carrier: the simulated line rings at once.
    input.onRinging?.();
    const callee = await repo.findCallee(org.id, input.to);
    const behaviour = callee?.behaviour ?? "person";
    if (behaviour === "busy") return { kind: "busy", reason: "486 Busy Here (sandbox callee)" };
    if (behaviour === "no_answer" || behaviour === "voicemail") {
      await ring(ringMs, input.signal);
      return { kind: "no_answer", reason: "no answer (sandbox callee)" };
    }
    if (input.signal.aborted) return { kind: "failed", reason: "cancelled" };
    const answered = await answerAsSandboxCallee({
      tts: deps.tts,
      behaviour: behaviour === "ivr" ? "ivr" : "person",
      says: callee?.says ?? null,
      from: input.from ?? "anonymous",
      to: input.to,
      // The person stays on the line while the caller is put through, and leaves after a quiet spell.
      quietMs: 4000,
    });
    return { kind: "answered", leg: answered.leg };
  }

  return {
    start,
    dialStored,
    dialTransfer,
    /** Places the call and resolves when it has ended (Tasks). Guards refuse with an ApiError. */
    async place(input: PlaceCallInput): Promise<PlacedCall> {
      const { done } = await start(input);
      return done;
    },
    /** Lets the SIP developer settings name each organisation's trunk (its outbound route). */
    useTrunkResolver(resolver: NonNullable<OutboundCallsDeps["resolveTrunk"]>) {
      setTrunkResolver = resolver;
    },
    /** Lets transfers to SIP URIs check their hosts as trunks' are (SIP developer settings). */
    useSipHostResolver(resolver: NonNullable<OutboundCallsDeps["resolveSipHost"]>) {
      resolveSipHost = resolver;
    },
    async stop() {
      const ending = [...active].map((handle) => {
        handle.hangup();
        return handle.done.catch(() => {});
      });
      await Promise.all(ending);
    },
  };
}

export type OutboundCalls = ReturnType<typeof createOutboundCalls>;
