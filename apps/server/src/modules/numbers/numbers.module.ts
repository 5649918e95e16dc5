import type { AppContext } from "../../app-context.ts";
import type { NumberProvider } from "../../providers/numbers/number-provider.ts";
import { sandboxNumberProvider } from "../../providers/numbers/sandbox-numbers.ts";
import { telnyxNumberProvider } from "../../providers/numbers/telnyx-numbers.ts";
import { twilioNumberProvider } from "../../providers/numbers/twilio-numbers.ts";
import type { AgentsService } from "../agents/index.ts";
import { createConversationsRepository } from "../conversations/index.ts";
import { createLedgerService } from "../ledger/index.ts";
import type { NotificationsService } from "../notifications/index.ts";
import { createUsageRepository } from "../usage/index.ts";
import type { VoiceModule } from "../voice/index.ts";
import { numberRenewalsJob } from "./jobs.ts";
import { createNumberRenewals } from "./number-renewals.ts";
import { createNumbersRepository } from "./numbers.repository.ts";
import { numbersRoutes } from "./numbers.routes.ts";
import { createNumbersService } from "./numbers.service.ts";
import { createOutboundCalls, type OutboundCallsDeps } from "./outbound-calls.ts";

/**
 * Phone numbers and outbound calls: the number provider (sandbox carrier by default, Twilio or Telnyx by
 * NUMBER_PROVIDER), the marketplace and bring-your-own routes, inbound routing by number (the SIP module
 * asks `numbers.agentForNumber`), the sandbox phone, and `outbound.place(...)` for features that call out.
 */
export function createNumbersModule(
  context: AppContext,
  deps: {
    agents: AgentsService;
    voice: Pick<VoiceModule, "startCallSession" | "providers">;
    /** The bell for renewals a wallet could not pay. */
    notifications: Pick<NotificationsService, "notifyOnce">;
    provider?: NumberProvider;
    /** How outbound calls are carried: the organisations' trunks and SIP hosts (SIP settings), the workers. */
    outbound?: Partial<
      Pick<OutboundCallsDeps, "amd" | "sandboxRingMs" | "resolveTrunk" | "resolveSipHost" | "workers">
    >;
  },
) {
  const { config } = context;
  const db = context.database.db;
  const repo = createNumbersRepository(db);
  const conversations = createConversationsRepository(db);
  const provider: NumberProvider =
    deps.provider ??
    (config.numbers.provider === "twilio" && config.numbers.twilio
      ? twilioNumberProvider(config.numbers.twilio)
      : config.numbers.provider === "telnyx" && config.numbers.telnyx
        ? telnyxNumberProvider(config.numbers.telnyx)
        : sandboxNumberProvider({ isTaken: (numbers) => repo.takenAmong(numbers) }));
  const sipHost = ["0.0.0.0", "::"].includes(config.host) ? "127.0.0.1" : config.host;
  // The ledger is the database's: numbers post to it as the wallet module's instance does.
  const ledger = createLedgerService(db);
  const money = context.limits.money;
  const usage = createUsageRepository(db);
  const planOf = (orgId: number) => usage.planOf(orgId);
  const numbers = createNumbersService({
    repo,
    provider,
    agents: deps.agents,
    loadAccount: context.access.loadAccount,
    routing: (number) => ({
      sipUri: `sip:${number}@${sipHost}:${config.sipPort || 5060}`,
      voiceUrl: `${config.publicUrl}/api/v1/voice/twilio/answer`,
      smsUrl: `${config.publicUrl}/api/v1/carrier/twilio/sms`,
      smsStatusUrl: `${config.publicUrl}/api/v1/carrier/twilio/status`,
    }),
    secretKey: context.secretKey,
    tts: deps.voice.providers.tts,
    log: context.log,
    planOf,
    ledger,
    money,
  });
  const renewals = createNumberRenewals({
    db,
    repo,
    provider,
    ledger,
    money,
    planOf,
    notifyOnce: (orgId, input) => deps.notifications.notifyOnce(orgId, input),
    email: context.email,
    ownerEmails: (orgId) => usage.ownerEmails(orgId),
    log: context.log,
  });
  // Renewals are checked as often as the wallet's usage is charged (USAGE_DEBIT_INTERVAL_SECONDS).
  const everyMs = config.usage.debitIntervalSeconds * 1000;
  context.jobs.register(numberRenewalsJob, async () => {
    try {
      const outcome = await renewals.renewDue();
      if (outcome.charged + outcome.pastDue + outcome.released > 0)
        context.log.info(outcome, "phone numbers renewed");
    } finally {
      await context.jobs.send(numberRenewalsJob, {}, { startAfter: new Date(Date.now() + everyMs) });
    }
  });
  const outbound = createOutboundCalls({
    repo,
    conversations,
    loadAccount: context.access.loadAccount,
    startCallSession: deps.voice.startCallSession,
    tts: deps.voice.providers.tts,
    config: config.numbers,
    log: context.log,
    localHost: sipHost,
    isVerifiedCallerId: (orgId, number) => numbers.isVerifiedCallerId(orgId, number),
    campaignOf: async (agent) => (await deps.agents.answeringCampaignOf(agent)).campaign,
    ...deps.outbound,
  });
  return {
    numbers,
    provider,
    /** Monthly charges of the numbers above the plan's included ones (number-renewals.ts). */
    renewals,
    /** Outbound calls: `outbound.place({ organizationId, agentAccountId, to, ... })` (see outbound-calls.ts). */
    outbound,
    routes: numbersRoutes({
      numbers,
      outbound,
      repo,
      agents: deps.agents,
      conversations,
      startCallSession: deps.voice.startCallSession,
    }),
    /** After the job runner started: queue the first renewals check (one waits at most). */
    async start() {
      await context.jobs
        .send(numberRenewalsJob, {}, { startAfter: new Date(Date.now() + Math.min(everyMs, 10_000)) })
        .catch((error: unknown) => context.log.warn({ err: error }, "could not queue the number renewals"));
    },
    stop: () => outbound.stop(),
  };
}

export type NumbersModule = ReturnType<typeof createNumbersModule>;

declare module "fastify" {
  interface FastifyInstance {
    /** Phone numbers and outbound calls (`app.numbers.outbound.place(...)`). */
    numbers: NumbersModule;
  }
}
