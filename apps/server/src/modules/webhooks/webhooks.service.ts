import {
  MAX_WEBHOOKS,
  WEBHOOK_MESSAGES,
  WEBHOOK_PAYLOAD_VERSION,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventData,
  type WebhookEventType,
  webhookEventDataSchemas,
} from "@switchboard/api";
import { redactDeep, redactionEnabled, redactionSettingsOf } from "@switchboard/core";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Access, AccountRow } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import { accounts } from "../../db/schema/index.ts";
import { type Outbound, OutboundError } from "../../http/outbound.ts";
import type { JobAttempt } from "../../jobs/job.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { EmailProvider } from "../../providers/email/email-provider.ts";
import { decryptSecret, encryptSecret } from "../../providers/llm/key-encryption.ts";
import { deliverWebhookJob } from "./jobs.ts";
import { newMessageId, newWebhookSecret, signatureHeaders } from "./signing.ts";
import {
  type AttemptRow,
  createWebhooksRepository,
  type DeliveryRow,
  type EndpointRow,
  type WebhooksRepository,
} from "./webhooks.repository.ts";

/** How long a rotated secret still signs beside the new one. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** What an attempt keeps of the receiver's answer. */
const EXCERPT_CHARS = 500;

export type WebhooksConfig = { retryScheduleMs: number[]; disableAfter: number; timeoutMs: number };

type Deps = {
  db: Database;
  jobs: JobRunner;
  outbound: Outbound;
  /** Key of the endpoint secrets at rest. */
  secretKey: string;
  email: EmailProvider;
  log: FastifyBaseLogger;
  config: WebhooksConfig;
  now?: () => number;
};

/** An event's type: one of the catalogue's, or the test event. */
type EventType = WebhookEventType | "webhook.test";

/** What other modules hold to send events: `emit` in their transaction when they have one. */
export type WebhookEvents = {
  emit<T extends WebhookEventType>(
    orgId: number,
    type: T,
    data: WebhookEventData<T>,
    options?: { transaction?: Database },
  ): Promise<void>;
  /** Lets this instance deliver at once what a committed transaction emitted. */
  wake(): void;
};

/** The organisation a call acts on: the target, or the organisation of a target agent account. */
function organizationIdOf(target: AccountRow): number {
  if (target.accountType === "organization") return target.id;
  if (target.accountType === "agent" && target.organizationId) return target.organizationId;
  throw badRequest(WEBHOOK_MESSAGES.noOrganization);
}

function toWebhook(row: EndpointRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    label: row.label,
    type: row.type as Webhook["type"],
    disabledAt: row.disabledAt?.getTime() ?? null,
    disabledReason: row.disabledReason,
    failureStreak: row.failureStreak,
    createdAt: row.createdAt.getTime(),
  };
}

function toDelivery(row: DeliveryRow & { url: string; attempts: AttemptRow[] }): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.endpointId,
    url: row.url,
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.status,
    attemptCount: row.attempts.length,
    nextAttemptAt: row.status === "pending" ? (row.nextAttemptAt?.getTime() ?? null) : null,
    createdAt: row.createdAt.getTime(),
    payload: row.payload,
    attempts: row.attempts.map((attempt) => ({
      at: attempt.attemptedAt.getTime(),
      durationMs: attempt.durationMs,
      status: attempt.status,
      excerpt: attempt.responseExcerpt,
      error: attempt.error,
    })),
  };
}

/** The first characters of an answer's body; the rest is not read. */
async function excerptOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A body cut off (size or time cap) still leaves what arrived.
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.slice(0, EXCERPT_CHARS);
}

export function createWebhooksService(deps: Deps) {
  const repo = createWebhooksRepository(deps.db);
  const now = deps.now ?? Date.now;
  const schedule = deps.config.retryScheduleMs;

  const secretsOf = (endpoint: EndpointRow): string[] => {
    const secrets = [decryptSecret(deps.secretKey, endpoint.secretEncrypted)];
    if (
      endpoint.previousSecretEncrypted &&
      endpoint.previousSecretExpiresAt &&
      endpoint.previousSecretExpiresAt.getTime() > now()
    )
      secrets.push(decryptSecret(deps.secretKey, endpoint.previousSecretEncrypted));
    return secrets;
  };

  /**
   * The event's data with what the organisation redacts replaced (`settings.redaction`): a card number said
   * in a call never leaves in a transcript, a message or an analysis.
   */
  async function redacted(db: Database, orgId: number, data: unknown): Promise<unknown> {
    const [row] = await db
      .select({ redaction: sql<unknown>`${accounts.settings} -> 'redaction'` })
      .from(accounts)
      .where(eq(accounts.id, orgId))
      .limit(1);
    const settings = redactionSettingsOf(row?.redaction);
    return redactionEnabled(settings) ? redactDeep(data, settings) : data;
  }

  function envelope(orgId: number, type: EventType, data: unknown): Record<string, unknown> {
    const schema = webhookEventDataSchemas[type];
    return {
      type,
      version: WEBHOOK_PAYLOAD_VERSION,
      timestamp: new Date(now()).toISOString(),
      organizationId: orgId,
      data: schema.parse(data),
    };
  }

  /** Writes one delivery per subscribed endpoint and queues its first attempt, with `db` (a transaction). */
  async function record(db: Database, orgId: number, type: WebhookEventType, data: unknown): Promise<number> {
    // Checked first: an event that does not match its documented shape is logged and dropped, never allowed
    // to fail the caller's transaction (the text message it reports must still be kept).
    const shown = await redacted(db, orgId, data);
    let payload: Record<string, unknown>;
    try {
      payload = envelope(orgId, type, shown);
    } catch (error) {
      deps.log.error({ err: error, orgId, type }, "webhook event does not match its schema; not sent");
      return 0;
    }
    const txRepo = createWebhooksRepository(db);
    const endpoints = await txRepo.subscribers(orgId, type);
    if (endpoints.length === 0) return 0;
    for (const endpoint of endpoints) {
      const delivery = await txRepo.insertDelivery({
        orgId,
        endpointId: endpoint.id,
        messageId: newMessageId(),
        eventType: type,
        payload,
        nextAttemptAt: new Date(now()),
      });
      await deps.jobs.send(
        deliverWebhookJob,
        { deliveryId: delivery.id, series: 0, attempt: 0 },
        { transaction: db },
      );
    }
    return endpoints.length;
  }

  const events: WebhookEvents = {
    async emit(orgId, type, data, options = {}) {
      if (options.transaction) {
        await record(options.transaction, orgId, type, data);
        return;
      }
      try {
        const queued = await deps.db.transaction((tx) => record(tx, orgId, type, data));
        if (queued > 0) deps.jobs.wake(deliverWebhookJob);
      } catch (error) {
        deps.log.error({ err: error, orgId, type }, "webhook event could not be queued");
      }
    },
    wake() {
      deps.jobs.wake(deliverWebhookJob);
    },
  };

  /** Posts a signed payload once; answers what happened, fit to log. */
  async function post(
    endpoint: EndpointRow,
    messageId: string,
    payload: Record<string, unknown>,
    signal?: AbortSignal,
  ) {
    const body = JSON.stringify(payload);
    const timestamp = Math.floor(now() / 1000);
    const started = performance.now();
    let status: number | null = null;
    let excerpt: string | null = null;
    let error: string | null = null;
    try {
      const response = await deps.outbound.request(endpoint.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Switchboard-Webhooks/1",
          ...signatureHeaders(secretsOf(endpoint), messageId, timestamp, body),
        },
        body,
        timeoutMs: deps.config.timeoutMs,
        maxBytes: 64 * 1024,
        maxRedirects: 0,
        ...(signal ? { signal } : {}),
      });
      status = response.status;
      excerpt = await excerptOf(response);
    } catch (caught) {
      if (signal?.aborted) throw caught;
      error = caught instanceof OutboundError ? caught.message : "This address could not be reached.";
    }
    const ok = status !== null && status >= 200 && status < 300;
    if (!ok && !error) error = `The receiver answered ${status}.`;
    return { ok, status, excerpt, error, durationMs: Math.round(performance.now() - started) };
  }

  /** Told when an endpoint is turned off for failing (the notifications module). */
  const turnedOffListeners = new Set<
    (endpoint: { orgId: number; url: string; label: string }, reason: string) => Promise<void> | void
  >();

  async function turnOff(endpoint: EndpointRow, reason: string) {
    await repo.updateEndpoint(endpoint.id, { disabledAt: new Date(now()), disabledReason: reason });
    deps.log.warn({ webhookId: endpoint.id, orgId: endpoint.orgId }, "webhook turned off after failing");
    for (const listener of turnedOffListeners)
      await Promise.resolve(listener(endpoint, reason)).catch((error: unknown) =>
        deps.log.warn({ err: error, webhookId: endpoint.id }, "webhook turned-off listener failed"),
      );
    try {
      const { emails, orgName } = await repo.ownerEmails(endpoint.orgId);
      for (const to of emails) {
        await deps.email.send({
          to,
          subject: "A webhook was turned off",
          text: [
            `${WEBHOOK_MESSAGES.disabledNotice}`,
            "",
            `Organisation: ${orgName ?? endpoint.orgId}`,
            `Webhook: ${endpoint.label ? `${endpoint.label} ` : ""}${endpoint.url}`,
            `Reason: ${reason}`,
          ].join("\n"),
        });
      }
    } catch (error) {
      deps.log.warn({ err: error, webhookId: endpoint.id }, "webhook notice could not be sent");
    }
  }

  /** The job: one attempt of a delivery, and the next one queued on the schedule when it failed. */
  async function deliver(
    job: { deliveryId: number; series: number; attempt: number },
    attempt: JobAttempt,
  ): Promise<void> {
    const delivery = await repo.findDelivery(job.deliveryId);
    // Delivered, given up, resent (a new series) or attempted already: nothing to do.
    if (
      delivery?.status !== "pending" ||
      delivery.series !== job.series ||
      delivery.attemptCount !== job.attempt
    )
      return;
    const endpoint = await repo.findEndpointById(delivery.endpointId);
    if (!endpoint) return;
    // Every write after this point is for this series and attempt only: a resend while the attempt ran
    // starts a new series, which this job must not overwrite.
    const current = { series: delivery.series, attemptCount: delivery.attemptCount };
    if (endpoint.disabledAt) {
      await repo.updateDelivery(delivery.id, { status: "failed", nextAttemptAt: null }, current);
      return;
    }
    const result = await post(endpoint, delivery.messageId, delivery.payload, attempt.signal);
    const logged = await repo.insertAttempt({
      orgId: delivery.orgId,
      deliveryId: delivery.id,
      attemptedAt: new Date(now()),
      durationMs: result.durationMs,
      status: result.status,
      responseExcerpt: result.excerpt,
      error: result.ok ? null : result.error,
    });
    // The endpoint was removed, and its deliveries with it, while the attempt ran.
    if (!logged) return;
    const attemptCount = delivery.attemptCount + 1;
    if (result.ok) {
      await repo.updateDelivery(
        delivery.id,
        { status: "succeeded", attemptCount, lastAttemptAt: new Date(now()), nextAttemptAt: null },
        current,
      );
      if (endpoint.failureStreak > 0) await repo.updateEndpoint(endpoint.id, { failureStreak: 0 });
      return;
    }
    const wait = schedule[delivery.attemptCount];
    if (wait === undefined) {
      const failed = await repo.updateDelivery(
        delivery.id,
        { status: "failed", attemptCount, lastAttemptAt: new Date(now()), nextAttemptAt: null },
        current,
      );
      if (!failed) return;
      const counted = await repo.addFailure(endpoint.id);
      if (counted && !counted.disabledAt && counted.failureStreak >= deps.config.disableAfter)
        await turnOff(
          counted,
          `${counted.failureStreak} deliveries in a row failed after every retry (last: ${result.error}).`,
        );
      return;
    }
    const next = new Date(now() + wait);
    // The next attempt's job and the delivery's state together: a crash between them cannot lose it.
    await deps.db.transaction(async (tx) => {
      const moved = await createWebhooksRepository(tx).updateDelivery(
        delivery.id,
        { attemptCount, lastAttemptAt: new Date(now()), nextAttemptAt: next },
        current,
      );
      if (!moved) return;
      await deps.jobs.send(
        deliverWebhookJob,
        { deliveryId: delivery.id, series: delivery.series, attempt: attemptCount },
        { transaction: tx, startAfter: next },
      );
    });
  }

  async function endpointOf(access: Access, id: number): Promise<EndpointRow> {
    const endpoint = await repo.findEndpoint(organizationIdOf(access.target), id);
    if (!endpoint) throw notFound(WEBHOOK_MESSAGES.notFound);
    return endpoint;
  }

  /** Checks an address before it is saved: the outbound guard's refusal, as the user's message. */
  async function checkAddress(url: string): Promise<void> {
    try {
      await deps.outbound.check(url);
    } catch (error) {
      if (error instanceof OutboundError) throw badRequest(error.message);
      throw error;
    }
  }

  return {
    events,
    onTurnedOff(
      listener: (
        endpoint: { orgId: number; url: string; label: string },
        reason: string,
      ) => Promise<void> | void,
    ) {
      turnedOffListeners.add(listener);
      return () => turnedOffListeners.delete(listener);
    },
    deliver,

    async list(access: Access): Promise<Webhook[]> {
      return (await repo.listEndpoints(organizationIdOf(access.target))).map(toWebhook);
    },

    async create(access: Access, body: { url: string; label: string; type: Webhook["type"] }) {
      const orgId = organizationIdOf(access.target);
      await checkAddress(body.url);
      if ((await repo.countEndpoints(orgId)) >= MAX_WEBHOOKS) throw badRequest(WEBHOOK_MESSAGES.tooMany);
      const secret = newWebhookSecret();
      const endpoint = await repo.insertEndpoint({
        orgId,
        url: body.url,
        label: body.label,
        type: body.type,
        secretEncrypted: encryptSecret(deps.secretKey, secret),
      });
      return { success: true as const, webhook: toWebhook(endpoint), secret };
    },

    async remove(access: Access, body: { url?: string | undefined; id?: number | undefined }) {
      const deleted = await repo.deleteEndpoints(organizationIdOf(access.target), {
        ...(body.id !== undefined ? { id: body.id } : {}),
        ...(body.url !== undefined ? { url: body.url } : {}),
      });
      if (deleted === 0) throw notFound(WEBHOOK_MESSAGES.notFound);
      return { success: true as const, deleted };
    },

    async rotate(access: Access, id: number) {
      const endpoint = await endpointOf(access, id);
      const secret = newWebhookSecret();
      const updated = await repo.updateEndpoint(endpoint.id, {
        secretEncrypted: encryptSecret(deps.secretKey, secret),
        previousSecretEncrypted: endpoint.secretEncrypted,
        previousSecretExpiresAt: new Date(now() + ROTATION_OVERLAP_MS),
      });
      return { success: true as const, webhook: toWebhook(updated ?? endpoint), secret };
    },

    async setEnabled(access: Access, id: number, enabled: boolean) {
      const endpoint = await endpointOf(access, id);
      if (enabled) await checkAddress(endpoint.url);
      const updated = await repo.updateEndpoint(
        endpoint.id,
        enabled
          ? { disabledAt: null, disabledReason: null, failureStreak: 0 }
          : { disabledAt: new Date(now()), disabledReason: "Turned off by hand." },
      );
      return { success: true as const, webhook: toWebhook(updated ?? endpoint) };
    },

    /** The test event: signed and sent at once, answered with what the receiver said, and logged. */
    async test(access: Access, url: string) {
      const orgId = organizationIdOf(access.target);
      const endpoint = await repo.findEndpointByUrl(orgId, url.trim());
      if (!endpoint) throw notFound(WEBHOOK_MESSAGES.notFound);
      const messageId = newMessageId();
      const payload = envelope(orgId, "webhook.test", {
        webhookId: endpoint.id,
        message: "This is a test event from Switchboard.",
      });
      const result = await post(endpoint, messageId, payload);
      const delivery = await repo.insertDelivery({
        orgId,
        endpointId: endpoint.id,
        messageId,
        eventType: "webhook.test",
        payload,
        status: result.ok ? "succeeded" : "failed",
        attemptCount: 1,
        lastAttemptAt: new Date(now()),
      });
      await repo.insertAttempt({
        orgId,
        deliveryId: delivery.id,
        attemptedAt: new Date(now()),
        durationMs: result.durationMs,
        status: result.status,
        responseExcerpt: result.excerpt,
        error: result.ok ? null : result.error,
      });
      return {
        success: true as const,
        ok: result.ok,
        status: result.status,
        excerpt: result.excerpt,
        error: result.ok ? null : result.error,
        messageId,
      };
    },

    async deliveries(access: Access, query: { webhookId?: number | undefined; limit: number }) {
      const rows = await repo.listDeliveries(organizationIdOf(access.target), {
        limit: query.limit,
        ...(query.webhookId !== undefined ? { endpointId: query.webhookId } : {}),
      });
      return { success: true as const, deliveries: rows.map(toDelivery) };
    },

    /** Delivers an event again: same webhook-id, a new series of attempts on the full schedule. */
    async resend(access: Access, deliveryId: number) {
      const orgId = organizationIdOf(access.target);
      const delivery = await repo.findDelivery(deliveryId);
      if (!delivery || delivery.orgId !== orgId) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
      const endpoint = await repo.findEndpointById(delivery.endpointId);
      if (!endpoint) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
      if (endpoint.disabledAt) throw badRequest("Turn this webhook on before resending to it.");
      const series = delivery.series + 1;
      await deps.db.transaction(async (tx) => {
        await createWebhooksRepository(tx).updateDelivery(delivery.id, {
          status: "pending",
          series,
          attemptCount: 0,
          nextAttemptAt: new Date(now()),
        });
        await deps.jobs.send(
          deliverWebhookJob,
          { deliveryId: delivery.id, series, attempt: 0 },
          { transaction: tx },
        );
      });
      deps.jobs.wake(deliverWebhookJob);
      const current = (await repo.findDelivery(delivery.id)) ?? delivery;
      const fresh = { ...current, url: endpoint.url, attempts: await repo.attemptsOf(delivery.id) };
      return { success: true as const, delivery: toDelivery(fresh) };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
export type { WebhooksRepository };
