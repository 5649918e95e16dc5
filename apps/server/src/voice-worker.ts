/**
 * A voice worker process (modules/voice/workers/supervisor.ts forks it): builds the app from the API
 * process's configuration as a voice worker and carries SIP calls until it is told to stop or the API
 * process goes away. Its database is the API's PGlite over the IPC channel, or PostgreSQL directly.
 */
import { buildApp } from "./app.ts";
import { type DatabaseHandle, openPostgres, pgliteHandle } from "./db/client.ts";
import { remotePglite } from "./db/remote-pglite.ts";
import type { Source } from "./modules/voice/sip/sip-types.ts";
import { createRelayedCalls } from "./modules/voice/workers/leg-relay.ts";
import {
  type FromWorker,
  isMessage,
  type ToWorker,
  type WorkerTaskHandlers,
} from "./modules/voice/workers/worker-messages.ts";
import { relayedSipTransport } from "./modules/voice/workers/worker-sip.ts";
import { installProcessGuard } from "./process-guard.ts";

installProcessGuard();

const send = (message: FromWorker | { t: "db" }) => {
  if (process.connected) process.send?.(message);
};
const sipHandlers = new Set<(data: Uint8Array, source: Source) => void>();
let stop: (() => void) | null = null;
let handlers: WorkerTaskHandlers | null = null;
let relayedCalls: ReturnType<typeof createRelayedCalls> | null = null;
let started = false;

process.on("message", (message: unknown) => {
  if (!isMessage<ToWorker>(message)) return;
  if (message.t === "sip:in") for (const handler of sipHandlers) handler(message.data, message.source);
  else if (message.t === "start" && !started) {
    started = true;
    start(message).catch((error: unknown) => {
      console.error(
        `voice worker failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(1);
    });
  } else if (message.t === "leg") relayedCalls?.feed(message.id, message.e);
  else if (message.t === "task") runTask(message);
  else if (message.t === "stop") stop?.();
});
// The API process is gone (or closed the channel): nothing more to do here.
process.on("disconnect", () => {
  if (stop) stop();
  else process.exit(0);
});

/** Does a task the API process handed over and answers how it ended (never throws). */
function runTask(message: Extract<ToWorker, { t: "task" }>) {
  const handler = handlers?.[message.kind] as ((input: unknown) => Promise<unknown>) | undefined;
  const done = handler ? handler(message.input) : Promise.reject(new Error("The voice worker is not ready."));
  done.then(
    (result) => send({ t: "task:done", id: message.id, result }),
    (error: unknown) =>
      send({
        t: "task:done",
        id: message.id,
        result: null,
        error: error instanceof Error ? error.message : String(error),
      }),
  );
}

async function start(message: Extract<ToWorker, { t: "start" }>) {
  const { index, sipPort, relayPort } = message;
  const config = {
    ...message.config,
    // SIP: a port of its own (a SIP edge dispatches to it) or what the API process relays; else none.
    sipPort: sipPort ?? relayPort ?? 0,
    demoData: false,
    demoCalls: false,
  };
  const database: DatabaseHandle = config.databaseUrl
    ? await openPostgres(config.databaseUrl, { poolSize: Math.min(config.databasePoolSize, 5) })
    : pgliteHandle(
        remotePglite({
          send: (request) => send(request),
          onMessage: (handler) => process.on("message", handler),
        }),
      );
  const app = await buildApp(config, {
    database,
    voiceWorker: {
      ...(sipPort === null && relayPort !== null
        ? {
            sipTransport: relayedSipTransport({
              port: relayPort,
              send,
              onMessage(handler) {
                sipHandlers.add(handler);
                return () => sipHandlers.delete(handler);
              },
            }),
          }
        : {}),
      serve({ tasks, startCall }) {
        handlers = tasks;
        relayedCalls = createRelayedCalls({ startCall, send: (id, e) => send({ t: "session", id, e }) });
      },
      onCall(call, ended) {
        send({ t: "call", state: "live", call });
        void ended.finally(() => send({ t: "call", state: "ended", callId: call.callId }));
      },
    },
  });
  installProcessGuard(app.log);
  app.log.info({ worker: index, pid: process.pid, sipPort }, "voice worker ready");

  let closing = false;
  stop = () => {
    if (closing) return;
    closing = true;
    const timer = setTimeout(() => process.exit(0), config.shutdownGraceMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, "voice worker: error while stopping");
        process.exit(1);
      },
    );
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => stop?.());
  send({ t: "ready", sipPort });
}
