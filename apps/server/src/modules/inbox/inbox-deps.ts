import type { FastifyBaseLogger } from "fastify";
import type { AccessResolver } from "../../access/access.ts";
import type { Database } from "../../db/client.ts";
import type { NoticeCache } from "../../db/notice-cache.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { SmsProvider } from "../../providers/sms/sms-provider.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import type { AgentsService } from "../agents/index.ts";
import type { ConversationsRepository } from "../conversations/index.ts";
import type { AgentTurns, ModelSettingsService } from "../runtime/index.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import type { InboxRepository } from "./inbox.repository.ts";

/** The repositories over one transaction, and the transaction (to send jobs in it). */
export type InboxTransaction = {
  repo: InboxRepository;
  conversations: ConversationsRepository;
  tx: Database;
};

export type InboxDeps = {
  repo: InboxRepository;
  conversations: ConversationsRepository;
  /**
   * Runs `work` in one database transaction. Inside it, only the given repositories may be used: PGlite
   * has one connection, and a statement sent outside the transaction would wait for it to end.
   */
  transaction: <T>(work: (t: InboxTransaction) => Promise<T>) => Promise<T>;
  /** The job runner: AI replies are jobs (./jobs.ts). */
  jobs: JobRunner;
  access: AccessResolver;
  agents: AgentsService;
  models: ModelSettingsService;
  turns: AgentTurns;
  sms: SmsProvider;
  realtime: RealtimeHub;
  /** Answered list pages until their organisation's inbox changes. */
  listCache: NoticeCache<string>;
  log: FastifyBaseLogger;
  /** The organisations' webhooks: message.received, message.sent, conversation.closed. */
  webhooks?: WebhookEvents;
  now?: () => number;
};

export type ListQuery = {
  isAgent: boolean;
  page: number;
  pageSize: number;
  unread: boolean;
  archived: boolean;
};

export type InboundSms = {
  provider: "sandbox" | "twilio";
  externalId: string;
  from: string;
  to: string;
  text: string;
  media: string[];
  /** The carrier's caller name (CNAM), when it sends one. */
  carrierName?: string | null;
};
