import type { FastifyBaseLogger } from "fastify";
import type { AccessResolver } from "./access/access.ts";
import type { Config } from "./config.ts";
import type { DatabaseHandle } from "./db/client.ts";
import type { NotificationListener } from "./db/notifications.ts";
import type { LoadLimits } from "./http/load-limits.ts";
import type { Outbound } from "./http/outbound.ts";
import type { WriteListeners } from "./http/write-listeners.ts";
import type { JobRunner } from "./jobs/runner.ts";
import type { EmailProvider } from "./providers/email/email-provider.ts";
import type { Outbox } from "./providers/outbox/outbox.ts";
import type { SmsProvider } from "./providers/sms/sms-provider.ts";
import type { StorageProvider } from "./providers/storage/storage-provider.ts";

/** What every module's handlers and services may use: built once per app. */
export type AppContext = {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  instance: { id: string; startedAt: Date; version: string };
  /** Resolves caller and target of every route that needs a token. */
  access: AccessResolver;
  /** The instance's LISTEN connection: realtime fan-out and cache invalidation across instances. */
  notifications: NotificationListener;
  /** Told after each call that may have written, before its answer: caches forget what it changed. */
  writes: WriteListeners;
  /** HMAC key (SECRET_KEY or the generated one). */
  secretKey: string;
  outbox: Outbox;
  email: EmailProvider;
  sms: SmsProvider;
  /** Uploaded files (DATA_DIR/files by default), served read-only at /files/... */
  storage: StorageProvider;
  /** The one guarded way to reach addresses users gave. */
  outbound: Outbound;
  /** Background jobs (pg-boss on this database): features register theirs before the app starts it. */
  jobs: JobRunner;
  /** The limits this server puts on costly calls (lightning invoices, payments, money movements). */
  limits: LoadLimits;
  /** The voice worker processes of the API process, once started (absent: calls run in this process). */
  voiceWorkers?: VoiceWorkersView;
};

/** What the API reads of its voice worker processes (modules/voice/workers): each one's state, for /readyz. */
export type VoiceWorkersView = {
  state(): {
    index: number;
    pid: number | null;
    state: "starting" | "up" | "restarting" | "stopped";
    calls: number;
    outboundCalls: number;
    restarts: number;
    sipPort: number | null;
  }[];
};

declare module "fastify" {
  interface FastifyInstance {
    /** The app's services, for tests and scripts that hold the instance. */
    context: AppContext;
  }
}
