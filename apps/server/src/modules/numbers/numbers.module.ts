import type { AppContext } from "../../app-context.ts";
import { loadLimitsOf } from "../../http/load-limits.ts";
import type { NumberProvider } from "../../providers/numbers/number-provider.ts";
import { sandboxNumberProvider } from "../../providers/numbers/sandbox-numbers.ts";
import { telnyxNumberProvider } from "../../providers/numbers/telnyx-numbers.ts";
import { twilioNumberProvider } from "../../providers/numbers/twilio-numbers.ts";
import type { AgentsService } from "../agents/agents.service.ts";
import { createLedgerService } from "../ledger/ledger.service.ts";
import { createConversationsRepository } from "../runtime/conversations.repository.ts";
import { createUsageRepository } from "../usage/usage.repository.ts";
import type { VoiceModule } from "../voice/voice.module.ts";
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
    provider?: NumberProvider;
    outbound?: Partial<Pick<OutboundCallsDeps, "amd" | "sandboxRingMs" | "resolveTrunk" | "workers">>;
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
    planOf: (orgId) => createUsageRepository(db).planOf(orgId),
    // The ledger is the database's: numbers post to it as the wallet module's instance does.
    ledger: createLedgerService(db),
    money: loadLimitsOf(context).money,
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
    campaignOf: async (agent) => {
      const { production, staging } = await deps.agents.campaignsOf(agent);
      return production ?? staging;
    },
    ...deps.outbound,
  });
  return {
    numbers,
    provider,
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
