/**
 * The API process's PGlite, served to its voice worker processes over their IPC channel.
 *
 * PGlite is one connection in one process. A worker gets a stand-in for that client (`remotePglite`) that
 * sends each statement to the API process, which runs it on its own PGlite (`servePgliteTo`); Drizzle's
 * PGlite driver, the job queue and LISTEN work over it unchanged. A transaction is one exclusive unit in
 * the API process: it holds PGlite's transaction lock from BEGIN to COMMIT, so no statement of the API
 * or of another worker runs inside it, and a worker that dies or goes silent mid-transaction is rolled back.
 *
 * Why not `@electric-sql/pglite-socket`: its multiplexer runs each wire-protocol message under PGlite's
 * query lock only. Statements the API process runs directly (which take the transaction lock, then the
 * query lock per statement) could then run inside a socket client's open transaction and the other way
 * round, and the Parse/Bind/Execute messages of two clients could interleave on the one unnamed statement.
 */
import type { ChildProcess } from "node:child_process";
import type { PGlite, Results, Transaction } from "@electric-sql/pglite";

/** A transaction left without a statement this long is rolled back (its worker is stuck). */
const IDLE_TRANSACTION_MS = 30_000;

type QueryOptions = { rowMode?: "array" | "object"; parsers?: Record<number, unknown> };
type WireOptions = { rowMode?: "array" | "object"; rawTypes?: number[] };

type Request =
  | { op: "query"; tx?: number; text: string; params?: unknown[]; options?: WireOptions }
  | { op: "exec"; tx?: number; text: string }
  | { op: "begin" }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "listen"; channel: string }
  | { op: "unlisten"; channel: string };

export type DbRequestMessage = { t: "db"; id: number; request: Request };
export type DbReplyMessage =
  | { t: "db:r"; id: number; ok: true; value: unknown }
  | { t: "db:r"; id: number; ok: false; error: Record<string, unknown> };
export type DbNotifyMessage = { t: "db:n"; channel: string; payload: string };

const isRequest = (message: unknown): message is DbRequestMessage =>
  typeof message === "object" && message !== null && (message as { t?: unknown }).t === "db";

/** Every field of a database error that callers read (code, constraint, detail ...), cloneable. */
function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error))
    if (value === undefined || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
  return fields;
}

// The parsers Drizzle passes keep some types as text (identity functions): the same types, kept as text.
const keepAsText = (types: number[] | undefined) =>
  types && types.length > 0 ? Object.fromEntries(types.map((type) => [type, (value: string) => value])) : {};

const queryOptions = (options: WireOptions | undefined) =>
  options ? { rowMode: options.rowMode, parsers: keepAsText(options.rawTypes) } : undefined;

/**
 * Answers one worker's database requests on this process's PGlite, until its channel closes (then its
 * open transaction is rolled back and its LISTENs end). Answers how to stop serving.
 */
export function servePgliteTo(
  child: ChildProcess,
  client: PGlite,
  log: { warn(details: object, message: string): void },
): () => void {
  type Open = {
    tx: Transaction;
    finish: (commit: boolean) => void;
    settled: Promise<void>;
    idle: NodeJS.Timeout | null;
  };
  const open = new Map<number, Open>();
  const listening = new Map<string, () => Promise<void>>();
  let nextTx = 1;
  let closed = false;

  const reply = (message: DbReplyMessage | DbNotifyMessage) => {
    if (closed || !child.connected) return;
    try {
      child.send(message, (error) => {
        if (error) log.warn({ err: error }, "could not answer a voice worker's database request");
      });
    } catch (error) {
      log.warn({ err: error }, "could not answer a voice worker's database request");
    }
  };

  function watch(id: number, entry: Open) {
    if (entry.idle) clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      log.warn({ tx: id }, "a voice worker left a transaction idle: rolled back");
      entry.finish(false);
    }, IDLE_TRANSACTION_MS);
    entry.idle.unref();
  }

  function begin(): Promise<number> {
    const id = nextTx++;
    return new Promise<number>((resolve, reject) => {
      let started = false;
      // Settles once the transaction has committed (or failed to) or rolled back.
      const settled: Promise<void> = client
        .transaction(async (tx) => {
          let finish: (commit: boolean) => void = () => {};
          const decided = new Promise<boolean>((settle) => {
            finish = settle;
          });
          const entry: Open = { tx, finish, settled, idle: null };
          open.set(id, entry);
          watch(id, entry);
          started = true;
          resolve(id);
          const commit = await decided;
          if (entry.idle) clearTimeout(entry.idle);
          if (!commit && !tx.closed) await tx.rollback();
        })
        .finally(() => open.delete(id));
      settled.catch((error: unknown) => {
        if (!started) reject(error);
      });
    });
  }

  async function end(id: number, commit: boolean): Promise<void> {
    const entry = open.get(id);
    if (!entry) throw new Error("The transaction has already ended.");
    entry.finish(commit);
    await entry.settled;
  }

  function target(txId: number | undefined) {
    if (txId === undefined) return client;
    const entry = open.get(txId);
    if (!entry) throw new Error("The transaction has already ended.");
    watch(txId, entry);
    return entry.tx;
  }

  async function run(request: Request): Promise<unknown> {
    switch (request.op) {
      case "query":
        return target(request.tx).query(request.text, request.params, queryOptions(request.options));
      case "exec":
        return target(request.tx).exec(request.text);
      case "begin":
        return begin();
      case "end":
        return end(request.tx, request.commit);
      case "listen":
        if (!listening.has(request.channel))
          listening.set(
            request.channel,
            await client.listen(request.channel, (payload) =>
              reply({ t: "db:n", channel: request.channel, payload }),
            ),
          );
        return null;
      case "unlisten": {
        const stop = listening.get(request.channel);
        listening.delete(request.channel);
        await stop?.();
        return null;
      }
    }
  }

  const onMessage = (message: unknown) => {
    if (!isRequest(message)) return;
    run(message.request).then(
      (value) => reply({ t: "db:r", id: message.id, ok: true, value }),
      (error: unknown) => reply({ t: "db:r", id: message.id, ok: false, error: errorFields(error) }),
    );
  };

  const stop = () => {
    if (closed) return;
    closed = true;
    child.off("message", onMessage);
    for (const entry of open.values()) entry.finish(false);
    for (const unlisten of listening.values()) void unlisten().catch(() => {});
    listening.clear();
  };
  child.on("message", onMessage);
  child.once("exit", stop);
  child.once("disconnect", stop);
  return stop;
}

/** What a worker's process offers: its IPC channel to the API process. */
type Channel = {
  send(message: DbRequestMessage): void;
  onMessage(handler: (message: unknown) => void): void;
};

/**
 * A PGlite client whose statements run in the API process (see the top of this file). It has what this
 * server uses of PGlite: query, exec, transaction, listen, close.
 */
export function remotePglite(channel: Channel): PGlite {
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();

  channel.onMessage((message) => {
    const m = message as DbReplyMessage | DbNotifyMessage | { t?: unknown };
    if (m.t === "db:n") {
      const { channel: name, payload } = m as DbNotifyMessage;
      for (const listener of listeners.get(name) ?? []) listener(payload);
      return;
    }
    if (m.t !== "db:r") return;
    const replyMessage = m as DbReplyMessage;
    const waiting = pending.get(replyMessage.id);
    if (!waiting) return;
    pending.delete(replyMessage.id);
    if (replyMessage.ok) waiting.resolve(replyMessage.value);
    else {
      const { message: text, ...fields } = replyMessage.error;
      waiting.reject(Object.assign(new Error(String(text ?? "database error")), fields));
    }
  });

  function call<T>(request: Request): Promise<T> {
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        channel.send({ t: "db", id, request });
      } catch (error) {
        pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  const wire = (options?: QueryOptions): WireOptions | undefined =>
    options
      ? {
          rowMode: options.rowMode,
          rawTypes: options.parsers ? Object.keys(options.parsers).map(Number) : undefined,
        }
      : undefined;

  const runner = (tx?: number) => ({
    query: <T>(text: string, params?: unknown[], options?: QueryOptions) =>
      call<Results<T>>({ op: "query", tx, text, params, options: wire(options) }),
    exec: (text: string) => call<Results[]>({ op: "exec", tx, text }),
  });

  async function listen(name: string, callback: (payload: string) => void) {
    let set = listeners.get(name);
    if (!set) {
      set = new Set();
      listeners.set(name, set);
      await call({ op: "listen", channel: name });
    }
    set.add(callback);
    return async () => {
      set.delete(callback);
      if (set.size === 0 && listeners.get(name) === set) {
        listeners.delete(name);
        await call({ op: "unlisten", channel: name });
      }
    };
  }

  const client = {
    ...runner(),
    waitReady: Promise.resolve(),
    ready: true,
    closed: false,
    async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
      const id = await call<number>({ op: "begin" });
      let closed = false;
      const tx = {
        ...runner(id),
        async rollback() {
          closed = true;
          await call({ op: "end", tx: id, commit: false });
        },
        listen: (name: string, handler: (payload: string) => void) => listen(name, handler),
        get closed() {
          return closed;
        },
      } as unknown as Transaction;
      try {
        const result = await callback(tx);
        if (!closed) {
          closed = true;
          await call({ op: "end", tx: id, commit: true });
        }
        return result;
      } catch (error) {
        if (!closed) {
          closed = true;
          await call({ op: "end", tx: id, commit: false }).catch(() => {});
        }
        throw error;
      }
    },
    listen,
    async close() {
      for (const waiting of pending.values()) waiting.reject(new Error("The database connection closed."));
      pending.clear();
    },
  };
  return client as unknown as PGlite;
}
