/**
 * The API process's voice workers (VOICE_WORKERS): child processes that carry SIP calls (their SIP dialogs,
 * RTP on their own media thread, recognisers and synthesisers as their niced children, the call pipeline),
 * so no call and no recogniser shares an event loop with the HTTP API and the web app.
 *
 * - Each worker is forked running `src/voice-worker.ts` and builds its own app from the API's configuration;
 *   it shares nothing with the API process but the database (on PGlite, the API's served over the IPC
 *   channel: db/remote-pglite.ts; on PostgreSQL its own pool).
 * - SIP: the API keeps the public SIP socket (signalling only) and relays each message by Call-ID: a new
 *   INVITE goes to the worker with the fewest calls, everything after it with the same Call-ID to that
 *   worker; what a worker sends leaves from the API's socket. With VOICE_WORKER_SIP_PORT each worker listens
 *   on a port of its own instead (a SIP edge such as Kamailio dispatches to them) and nothing is relayed.
 * - Tasks by name (`run`, worker-messages.ts): the worker with the fewest calls dials an outbound call the API
 *   process checked and stored, and carries it; or makes the demo's simulated calls. It answers when done.
 * - Browser and Twilio calls: their WebSocket stays here and the leg is relayed to the worker with the
 *   fewest calls, which runs the pipeline (leg-relay.ts).
 * - A worker that dies ends only its calls: those still in progress (the Call-IDs it carried) are ended and
 *   logged once as failed, from the database, the tasks it had fail with the same error, and it is started
 *   again after a back-off (0.5 s doubling to 30 s; back to 0.5 s once a worker has run a minute). `/readyz`
 *   lists the workers' states.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../../app-context.ts";
import { executeRows } from "../../../db/client.ts";
import { servePgliteTo } from "../../../db/remote-pglite.ts";
import type { RealtimeHub } from "../../../realtime/realtime-hub.ts";
import type { CallLeg } from "../call-leg.ts";
import type { CallSession, StartCallOptions } from "../call-session-types.ts";
import { randomToken, tagOf } from "../sip/sip-ids.ts";
import {
  addressUri,
  getHeader,
  getHeaders,
  parseSipMessage,
  type SipMessage,
  type SipRequest,
  type SipResponse,
  serializeSipMessage,
} from "../sip/sip-message.ts";
import type { SipServer, Source } from "../sip/sip-types.ts";
import { type RelayedCall, relayToWorker } from "./leg-relay.ts";
import {
  type CarriedCall,
  type FromWorker,
  isMessage,
  type ToWorker,
  type WorkerTaskKind,
  type WorkerTasks,
} from "./worker-messages.ts";

const WORKER_ENTRY = fileURLToPath(new URL("../../../voice-worker.ts", import.meta.url));
/** What the call log says of a call whose worker stopped. */
export const WORKER_LOST_ERROR = "The voice worker carrying the call stopped.";
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** A worker that ran this long is healthy again: its next restart waits the first back-off. */
const HEALTHY_AFTER_MS = 60_000;
/** A Call-ID stays with its worker this long after its last message (retransmissions, late ACKs). */
const AFFINITY_IDLE_MS = 64_000;

export type VoiceWorkerState = "starting" | "up" | "restarting" | "stopped";

type Slot = {
  index: number;
  child: ChildProcess | null;
  state: VoiceWorkerState;
  restarts: number;
  backoffMs: number;
  startedAt: number;
  timer: NodeJS.Timeout | null;
  /** The calls it says it carries, by call id. */
  calls: Map<string, CarriedCall>;
  /** Call-IDs relayed to it (INVITEs it may not have answered yet among them). */
  assigned: Set<string>;
  sipPort: number | null;
  /** Calls whose leg is relayed to it (browser, Twilio), by relay id. */
  relayed: Map<string, RelayedCall>;
  /** Tasks it was given that are not done: their kind, and how to answer each. */
  tasks: Map<
    string,
    { kind: WorkerTaskKind; answer: (end: { result: unknown } | { failed: string }) => void }
  >;
};

export function createVoiceWorkers(
  context: AppContext,
  deps: { realtime?: Pick<RealtimeHub, "publish">; entry?: string },
) {
  const { config, log, database } = context;
  const slots: Slot[] = Array.from({ length: config.voice.workers }, (_, index) => ({
    index,
    child: null,
    state: "stopped",
    restarts: 0,
    backoffMs: FIRST_BACKOFF_MS,
    startedAt: 0,
    timer: null,
    calls: new Map(),
    assigned: new Set(),
    relayed: new Map(),
    tasks: new Map(),
    sipPort: config.voice.workerSipPort ? config.voice.workerSipPort + index : null,
  }));
  /** Each relayed Call-ID's worker; for an answered call, its INVITE and 2xx (to hang it up if the worker dies). */
  const affinity = new Map<
    string,
    { slot: Slot; seen: number; invite?: SipRequest; source?: Source; answer?: SipResponse }
  >();
  const ownPorts = config.voice.workerSipPort !== undefined;
  let sip: SipServer | null = null;
  let stopping = false;
  const marking = new Set<Promise<void>>();
  /** Who waits for a worker to be up (`up`). */
  const waitingForUp = new Set<() => void>();
  const sweeper = setInterval(() => {
    const before = Date.now() - AFFINITY_IDLE_MS;
    for (const [callId, held] of affinity)
      if (held.seen < before && !held.slot.calls.has(callId)) forget(callId);
  }, 10_000);
  sweeper.unref();

  function forget(callId: string) {
    const held = affinity.get(callId);
    if (!held) return;
    affinity.delete(callId);
    held.slot.assigned.delete(callId);
  }

  const send = (slot: Slot, message: ToWorker) => {
    const child = slot.child;
    if (!child?.connected) return false;
    try {
      child.send(message, (error) => {
        if (error) log.debug({ err: error, worker: slot.index }, "could not reach a voice worker");
      });
      return true;
    } catch (error) {
      log.debug({ err: error, worker: slot.index }, "could not reach a voice worker");
      return false;
    }
  };

  function spawn(slot: Slot) {
    slot.timer = null;
    if (stopping) return;
    const child = fork(deps.entry ?? WORKER_ENTRY, [], {
      execArgv: ["--import", "tsx"],
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    slot.child = child;
    slot.state = "starting";
    slot.startedAt = Date.now();
    const stopServing =
      database.driver.kind === "pglite" ? servePgliteTo(child, database.driver.client, log) : null;
    child.on("message", (message) => {
      if (slot.child === child && isMessage<FromWorker>(message)) onMessage(slot, message);
    });
    child.on("error", (error) => log.warn({ err: error, worker: slot.index }, "voice worker process error"));
    child.once("exit", (code, signal) => {
      stopServing?.();
      if (slot.child === child) void onExit(slot, code, signal);
    });
    send(slot, {
      t: "start",
      index: slot.index,
      // The database this process has open (tests open one of their own beside DATABASE_URL's).
      config:
        database.driver.kind === "postgres"
          ? { ...config, databaseUrl: database.driver.pool.options.connectionString ?? config.databaseUrl }
          : config,
      sipPort: slot.sipPort,
      relayPort: ownPorts ? null : (sip?.port ?? null),
    });
  }

  function onMessage(slot: Slot, message: FromWorker) {
    switch (message.t) {
      case "ready":
        slot.state = "up";
        for (const wake of waitingForUp) wake();
        log.info({ worker: slot.index, pid: slot.child?.pid, sipPort: message.sipPort }, "voice worker up");
        return;
      case "sip:out": {
        if (!sip) return;
        let parsed: SipMessage;
        try {
          parsed = parseSipMessage(
            Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength),
          );
        } catch (error) {
          log.debug({ err: error, worker: slot.index }, "a voice worker sent a malformed SIP message");
          return;
        }
        const callId = getHeader(parsed, "Call-ID");
        const held = callId ? affinity.get(callId) : undefined;
        if (held) {
          held.seen = Date.now();
          if (parsed.kind === "request" && parsed.method === "BYE") held.answer = undefined;
          else if (
            parsed.kind === "response" &&
            parsed.status >= 200 &&
            parsed.status < 300 &&
            getHeader(parsed, "CSeq")?.endsWith("INVITE") &&
            held.invite &&
            !held.answer
          )
            held.answer = parsed;
        } else if (callId) assign(callId, slot);
        sip.transmit(parsed, message.to as Source);
        return;
      }
      case "call":
        if (message.state === "live") slot.calls.set(message.call.callId, message.call);
        else slot.calls.delete(message.callId);
        return;
      case "session":
        slot.relayed.get(message.id)?.onEvent(message.e);
        return;
      case "task:done":
        slot.tasks
          .get(message.id)
          ?.answer(message.error !== undefined ? { failed: message.error } : { result: message.result });
        slot.tasks.delete(message.id);
        return;
    }
  }

  function assign(callId: string, slot: Slot, invite?: { request: SipRequest; source: Source }) {
    affinity.set(callId, { slot, seen: Date.now(), invite: invite?.request, source: invite?.source });
    slot.assigned.add(callId);
  }

  /** The worker up with the fewest calls, or null. */
  function pick(): Slot | null {
    let best: Slot | null = null;
    const load = (slot: Slot) => slot.assigned.size + slot.tasks.size + slot.relayed.size;
    for (const slot of slots) if (slot.state === "up" && (!best || load(slot) < load(best))) best = slot;
    return best;
  }

  /**
   * Has the worker up with the fewest calls do a task: resolves with its result, or why it failed (the
   * worker stopped first: WORKER_LOST_ERROR). Null when no worker is up.
   */
  function run<K extends WorkerTaskKind>(
    kind: K,
    input: WorkerTasks[K]["input"],
  ): Promise<{ result: WorkerTasks[K]["result"] } | { failed: string }> | null {
    const slot = pick();
    if (!slot) return null;
    const id = randomToken();
    const done = new Promise<{ result: WorkerTasks[K]["result"] } | { failed: string }>((resolve) =>
      slot.tasks.set(id, {
        kind,
        answer: (end) => resolve(end as { result: WorkerTasks[K]["result"] } | { failed: string }),
      }),
    );
    if (!send(slot, { t: "task", id, kind, input } as ToWorker)) {
      slot.tasks.delete(id);
      return null;
    }
    return done;
  }

  /**
   * Runs a call's pipeline in the worker up with the fewest calls while its leg (a WebSocket's) stays here;
   * null when no worker is up. The session ends as failed, and the leg is hung up, if the worker dies.
   */
  function startSession(leg: CallLeg, options: StartCallOptions): CallSession | null {
    const slot = pick();
    if (!slot) return null;
    const id = randomToken();
    const relayed = relayToWorker(
      leg,
      options,
      (e) => send(slot, { t: "leg", id, e }),
      () => slot.relayed.delete(id),
    );
    if (!relayed) return null;
    slot.relayed.set(id, relayed);
    return relayed.session;
  }

  /** The SIP server's relay hook: true when a worker took the message. */
  function relay(message: SipMessage, source: Source): boolean {
    if (ownPorts) return false;
    const callId = getHeader(message, "Call-ID");
    if (!callId) return false;
    const held = affinity.get(callId);
    let slot = held && held.slot.state === "up" ? held.slot : null;
    if (!slot) {
      if (held) forget(callId);
      const newCall =
        message.kind === "request" && message.method === "INVITE" && !tagOf(getHeader(message, "To"));
      if (!newCall) return false;
      slot = pick();
      if (!slot) return false;
      assign(callId, slot, { request: message as SipRequest, source });
    } else if (held) {
      held.seen = Date.now();
      if (message.kind === "request" && message.method === "BYE") held.answer = undefined;
    }
    return send(slot, {
      t: "sip:in",
      data: new Uint8Array(serializeSipMessage(message)),
      source: { transport: source.transport, address: source.address, port: source.port },
    });
  }

  async function onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null) {
    slot.child = null;
    const lost = new Set([...slot.calls.keys(), ...slot.assigned]);
    const carried = [...slot.calls.values()];
    for (const callId of lost) hangUp(callId);
    for (const callId of [...slot.assigned]) forget(callId);
    slot.calls.clear();
    for (const relayed of [...slot.relayed.values()]) relayed.lost(WORKER_LOST_ERROR);
    slot.relayed.clear();
    for (const task of slot.tasks.values()) task.answer({ failed: WORKER_LOST_ERROR });
    const lostTasks = slot.tasks.size;
    slot.tasks.clear();
    const ranMs = Date.now() - slot.startedAt;
    if (stopping) slot.state = "stopped";
    else {
      slot.state = "restarting";
      slot.backoffMs = ranMs >= HEALTHY_AFTER_MS ? FIRST_BACKOFF_MS : slot.backoffMs;
      const delay = slot.backoffMs;
      slot.backoffMs = Math.min(MAX_BACKOFF_MS, slot.backoffMs * 2);
      slot.restarts++;
      log.error(
        { worker: slot.index, code, signal, calls: lost.size, tasks: lostTasks, restartInMs: delay },
        "a voice worker stopped: its calls are logged as failed and it starts again",
      );
      slot.timer = setTimeout(() => spawn(slot), delay);
      slot.timer.unref();
    }
    if (lost.size === 0) return;
    const marked = markFailed([...lost], carried);
    marking.add(marked);
    await marked;
    marking.delete(marked);
  }

  /**
   * Hangs up (BYE, from the API's SIP port) a call the worker answered and had not ended: the caller is
   * not left on a silent line. Sent along the INVITE's way back (its Record-Route, to its last hop).
   */
  function hangUp(callId: string) {
    const held = affinity.get(callId);
    const { invite, answer, source } = held ?? {};
    if (!sip || !invite || !answer || !source) return;
    const contact = getHeader(invite, "Contact");
    const from = getHeader(invite, "From");
    const to = getHeader(answer, "To");
    if (!contact || !from || !to) return;
    const bye: SipRequest = {
      kind: "request",
      method: "BYE",
      uri: addressUri(contact),
      headers: [
        [
          "Via",
          `SIP/2.0/${source.transport.toUpperCase()} ${config.host}:${sip.port};branch=z9hG4bK${randomToken()};rport`,
        ],
        ["Max-Forwards", "70"],
        ["From", to],
        ["To", from],
        ["Call-ID", callId],
        // Above any CSeq the worker used in the dialog (it starts below 10,000).
        ["CSeq", "1000000 BYE"],
        ...getHeaders(invite, "Record-Route").map((route): [string, string] => ["Route", route]),
        ["Reason", 'SIP;cause=500;text="The voice worker carrying the call stopped"'],
      ],
      body: Buffer.alloc(0),
    };
    void sip.request(bye, { transport: source.transport, address: source.address, port: source.port });
  }

  /**
   * Ends the calls of a worker that stopped, once: their conversations still in progress are ended and
   * their log rows say the call failed (a row is written if the call had none yet); a call it had answered
   * but not yet given a conversation (`carried`, as the worker announced it) gets a failed log row of its
   * own. The web app is told.
   */
  async function markFailed(callIds: string[], carried: CarriedCall[]) {
    try {
      const ids = sql.join(
        callIds.map((id) => sql`${id}`),
        sql`, `,
      );
      const failed = sql`jsonb_build_object('callOutcome', 'failed', 'error', ${WORKER_LOST_ERROR}::text)`;
      const rows = await executeRows<{ uuid: string; org_id: number; agent_id: number }>(
        database.db,
        sql`with ended as (
              update conversations
                 set status = 'ended', ended_at = now(), last_activity_at = now()
               where channel = 'voice' and status = 'active' and call_id in (${ids})
               returning *
            )
            insert into conversation_logs as l
              (org_id, account_id, agent_id, timestamp, duration, from_number, to_number, room_id, direction,
               call_id, uuid, channel, data)
            select org_id, org_id, agent_account_id, started_at,
                   greatest(0, extract(epoch from now() - started_at))::int, from_address, to_address, room_id,
                   direction, call_id, uuid, 'voice',
                   jsonb_build_object('channel', 'voice', 'stage', stage, 'model', model) || ${failed}
              from ended
            on conflict (uuid) do update
               set data = l.data || ${failed}, duration = excluded.duration, updated_at = now()
            returning l.uuid, l.org_id, l.agent_id`,
      );
      // The calls the worker had announced: those without a conversation or a row yet get a row of their own.
      if (carried.length > 0) {
        const unseen = await executeRows<{ uuid: string; org_id: number; agent_id: number }>(
          database.db,
          sql`insert into conversation_logs
              (org_id, account_id, agent_id, timestamp, duration, from_number, to_number, direction, call_id,
               uuid, channel, data)
            select a.organization_id, a.organization_id, a.id, c.started_at,
                   greatest(0, extract(epoch from now() - c.started_at))::int, c.from_address, c.to_address,
                   c.direction, c.call_id, gen_random_uuid()::text, 'voice',
                   jsonb_build_object('channel', 'voice') || ${failed}
              from jsonb_to_recordset(${JSON.stringify(
                carried.map((call) => ({
                  call_id: call.callId,
                  agent_account_id: call.agentAccountId,
                  direction: call.direction,
                  from_address: call.from,
                  to_address: call.to,
                  started_at: call.startedAt,
                })),
              )}::jsonb) as c(call_id text, agent_account_id integer, direction text, from_address text,
                             to_address text, started_at timestamptz)
              join accounts a on a.id = c.agent_account_id and a.organization_id is not null
             where not exists (select 1 from conversations v where v.channel = 'voice' and v.call_id = c.call_id)
               and not exists (select 1 from conversation_logs g where g.call_id = c.call_id)
            returning uuid, org_id, agent_id`,
        );
        rows.push(...unseen);
      }
      if (rows.length > 0) log.warn({ calls: rows.map((row) => row.uuid) }, "calls logged as failed");
      for (const row of rows)
        await deps.realtime
          ?.publish({
            orgId: row.org_id,
            agentId: row.agent_id,
            event: { type: "call", what: "ended", uuid: row.uuid },
          })
          .catch((error: unknown) => log.warn({ err: error }, "could not publish a call event"));
    } catch (error) {
      log.error({ err: error, callIds }, "could not log the calls of a stopped voice worker as failed");
    }
  }

  /** Resolves true once a worker is up (at once if one is), false after `timeoutMs` or when stopping. */
  function up(timeoutMs: number): Promise<boolean> {
    if (slots.some((slot) => slot.state === "up")) return Promise.resolve(true);
    if (stopping) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        waitingForUp.delete(wake);
        resolve(!stopping && slots.some((slot) => slot.state === "up"));
      };
      const timer = setTimeout(wake, timeoutMs);
      timer.unref();
      waitingForUp.add(wake);
    });
  }

  return {
    relay,
    run,
    up,
    startSession,
    /** Forks the workers (they take calls once each says it is ready). `server`: the API's SIP server. */
    start(server: SipServer | null) {
      sip = server;
      for (const slot of slots) spawn(slot);
    },
    state: () =>
      slots.map((slot) => ({
        index: slot.index,
        pid: slot.child?.pid ?? null,
        state: slot.state,
        calls: slot.calls.size,
        outboundCalls: [...slot.tasks.values()].filter((task) => task.kind === "dial").length,
        restarts: slot.restarts,
        sipPort: slot.sipPort,
      })),
    /** Tells every worker to hang up its calls and exit; kills those still running after `graceMs`. */
    async stop(graceMs = 5000) {
      stopping = true;
      for (const wake of waitingForUp) wake();
      clearInterval(sweeper);
      const exits = slots.map((slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        const child = slot.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) {
          slot.state = "stopped";
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
          child.once("exit", () => {
            clearTimeout(kill);
            resolve();
          });
          if (!send(slot, { t: "stop" })) child.kill("SIGTERM");
        });
      });
      await Promise.all(exits);
      await Promise.all([...marking]);
    },
  };
}

export type VoiceWorkers = ReturnType<typeof createVoiceWorkers>;
