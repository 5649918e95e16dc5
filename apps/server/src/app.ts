import { readFileSync } from "node:fs";
import path from "node:path";
import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import websocket from "@fastify/websocket";
import { routeTable, WS_BEARER_PROTOCOL } from "@switchboard/api";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { DestinationStream } from "pino";
import { createAccessResolver } from "./access/access.ts";
import { followAccessChanges } from "./access/follow-access.ts";
import { resolveSecretKey } from "./access/secrets.ts";
import type { AppContext } from "./app-context.ts";
import type { Config } from "./config.ts";
import { type DatabaseHandle, openDatabase } from "./db/client.ts";
import { migrateDatabase } from "./db/migrate.ts";
import { createNotificationListener } from "./db/notifications.ts";
import { DEMO_CALLED_AGENT, DEMO_USERS, DEMO_WHITE_LABEL_HOST, seedDemoData } from "./demo/seed.ts";
import { registerApiDocs } from "./http/api-docs.ts";
import { registerInputCleaning } from "./http/clean-input.ts";
import { registerCompression } from "./http/compression.ts";
import { installErrorHandler } from "./http/error-handler.ts";
import { registerFiles } from "./http/files.ts";
import { createLoadLimits } from "./http/load-limits.ts";
import { createOutbound } from "./http/outbound.ts";
import { type BoundRoute, registerRoutes } from "./http/routes.ts";
import { registerWebApp } from "./http/web-app.ts";
import { createWriteListeners } from "./http/write-listeners.ts";
import { createJobRunner } from "./jobs/runner.ts";
import { installJobSchema } from "./jobs/schema.ts";
import { createLogger } from "./logger.ts";
import { createAccountsModule } from "./modules/accounts/accounts.module.ts";
import { createAdminUsersModule } from "./modules/admin-users/admin-users.module.ts";
import { createAgentTestsModule } from "./modules/agent-tests/agent-tests.module.ts";
import { createAgentsModule } from "./modules/agents/agents.module.ts";
import { createApiTokensModule } from "./modules/api-tokens/api-tokens.module.ts";
import { createAuthModule } from "./modules/auth/auth.module.ts";
import { createBillingModule, keepRawBillingWebhookBodies } from "./modules/billing/billing.module.ts";
import { createCalendarsModule } from "./modules/calendars/calendars.module.ts";
import { createContactsModule } from "./modules/contacts/contacts.module.ts";
import { createDomainsModule } from "./modules/domains/domains.module.ts";
import { createHierarchyModule } from "./modules/hierarchy/hierarchy.module.ts";
import { createInboxModule } from "./modules/inbox/inbox.module.ts";
import { createKnowledgeBaseModule } from "./modules/knowledge-base/knowledge-base.module.ts";
import { createLogsModule } from "./modules/logs/logs.module.ts";
import { createNotificationsModule } from "./modules/notifications/notifications.module.ts";
import { numberOrgLookup } from "./modules/numbers/index.ts";
import { createNumbersModule } from "./modules/numbers/numbers.module.ts";
import { createProfilesModule } from "./modules/profiles/profiles.module.ts";
import { createReferralsModule } from "./modules/referrals/referrals.module.ts";
import { createRuntimeModule } from "./modules/runtime/runtime.module.ts";
import { createSearchModule } from "./modules/search/search.module.ts";
import { createSipSettingsModule } from "./modules/sip-settings/sip-settings.module.ts";
import { createSystemModule } from "./modules/system/system.module.ts";
import { startInstanceRegistration } from "./modules/system/system.service.ts";
import { createTasksModule } from "./modules/tasks/tasks.module.ts";
import { createUsageModule } from "./modules/usage/usage.module.ts";
import { demoCallsJob } from "./modules/voice/demo-calls.ts";
import { createSipModule } from "./modules/voice/sip/sip.module.ts";
import type { SipServerOptions } from "./modules/voice/sip/sip-types.ts";
import { createVoiceModule, type VoiceModule } from "./modules/voice/voice.module.ts";
import { createVoiceWorkers } from "./modules/voice/workers/supervisor.ts";
import type { CarriedCall, WorkerTaskHandlers } from "./modules/voice/workers/worker-messages.ts";
import { createWalletModule, keepRawWebhookBodies } from "./modules/wallet/wallet.module.ts";
import { createWebhooksModule } from "./modules/webhooks/webhooks.module.ts";
import { createWithdrawalsModule } from "./modules/withdrawals/withdrawals.module.ts";
import { outboxEmailProvider, smtpEmailProvider } from "./providers/email/email-provider.ts";
import { createOutbox } from "./providers/outbox/outbox.ts";
import { sandboxCarrier } from "./providers/sms/sandbox-carrier.ts";
import { twilioSmsProvider } from "./providers/sms/twilio.ts";
import { localStorageProvider } from "./providers/storage/storage-provider.ts";

export const VERSION: string = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).version;

function demoSignInHelp(publicUrl: string, devOutbox: boolean): string {
  return [
    `Demo data created. Sign in at ${publicUrl}/signin with one of:`,
    ...Object.entries(DEMO_USERS).map(([role, email]) => `  ${role.padEnd(10)} ${email}`),
    devOutbox
      ? `The 6-digit code arrives in the dev outbox: ${publicUrl}/api/dev/outbox (also printed here).`
      : "The 6-digit code is printed here (DEV_OUTBOX=true also lists it at /api/dev/outbox).",
    `The partner's white-label host: ${publicUrl.replace(/\/\/[^/:]+/, `//${DEMO_WHITE_LABEL_HOST}`)}/app`,
  ].join("\n");
}

export type BuildOptions = {
  /** An already-open database (tests pass one cloned from a migrated template). Closed with the app. */
  database?: DatabaseHandle;
  /** Where the logs go; stdout by default. */
  logDestination?: DestinationStream;
  /**
   * This process is a voice worker (modules/voice/workers/, started by the API process): it carries SIP
   * calls and nothing else runs here (no migrations, demo data, job workers, periodic sweeps or SIP
   * registrations; it never listens for HTTP).
   */
  voiceWorker?: {
    /** SIP through the API process (unless the worker listens on a SIP port of its own). */
    sipTransport?: SipServerOptions["transport"];
    /** Told of each call it carries (answered or placed) as it starts, before it is answered. */
    onCall(call: CarriedCall, ended: Promise<unknown>): void;
    /** Given how to do the tasks the API process hands it and to start the calls it relays. */
    serve(given: { tasks: WorkerTaskHandlers; startCall: VoiceModule["startCallSession"] }): void;
  };
};

/** Builds the whole server without listening: tests call it with their own config. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const logger = createLogger(config.logLevel, options.logDestination);
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    forceCloseConnections: "idle",
    return503OnClosing: true,
    // Only proxies the operator names may set the client's address (X-Forwarded-For): off by default. A hop
    // count trusts that many proxies nearest the server (this Fastify refuses a plain number).
    trustProxy:
      typeof config.trustProxy === "number"
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
  });

  registerCompression(app);

  const database = options.database ?? (await openDatabase(config));
  app.addHook("onClose", async () => {
    await database.close();
  });
  const worker = options.voiceWorker;
  if (!worker) {
    await migrateDatabase(database);
    await installJobSchema(database);
  }

  const seeded = !worker && config.demoData && (await seedDemoData(database.db));
  if (seeded) {
    app.log.info("seeded the demo hierarchy");
    console.log(demoSignInHelp(config.publicUrl, config.devOutbox));
  }

  const registration = await startInstanceRegistration(database.db, VERSION);

  const db = database.db;
  const outbox = createOutbox(db, config.env === "test" ? () => {} : undefined);
  const email = config.smtpUrl
    ? smtpEmailProvider(config.smtpUrl, config.emailFrom)
    : outboxEmailProvider(outbox);
  // Text messages: the sandbox carrier (simulated handsets, the phone simulator) unless Twilio is configured.
  const sandbox = config.sms.provider === "sandbox" ? sandboxCarrier(db, outbox) : null;
  const sms =
    config.sms.provider === "twilio"
      ? twilioSmsProvider({
          accountSid: config.sms.accountSid,
          authToken: config.sms.authToken,
          fromNumber: config.sms.fromNumber,
          apiUrl: config.sms.apiUrl,
          statusCallbackUrl: `${config.publicUrl}/api/v1/carrier/twilio/status`,
        })
      : (sandbox as NonNullable<typeof sandbox>);
  const secretKey = await resolveSecretKey(db, config.secretKey);
  const notifications = createNotificationListener({ database, log: app.log });
  await notifications.start();
  const writes = createWriteListeners();
  const access = createAccessResolver(db);
  const stopFollowingAccess = await followAccessChanges({ access, database, notifications });
  const storage = localStorageProvider(path.join(config.dataDir, "files"), config.publicUrl);
  const outbound = createOutbound({
    allowlist: config.outbound.allowlist,
    httpsOnly: config.env === "production",
    timeoutMs: config.toolTimeoutMs,
    maxBytes: 5 * 1024 * 1024,
  });
  app.addHook("onClose", () => outbound.close());
  const jobs = createJobRunner(database, {
    log: app.log,
    workerTimeoutSeconds: config.jobWorkerTimeoutSeconds,
    sendOnly: Boolean(worker),
  });
  const context: AppContext = {
    config,
    database,
    log: app.log,
    instance: { id: registration.id, startedAt: registration.startedAt, version: VERSION },
    access,
    notifications,
    writes,
    secretKey,
    outbox,
    email,
    sms,
    storage,
    outbound,
    jobs,
    limits: createLoadLimits(),
  };

  // The feature modules, each after those it uses. Each gives its routes and may give a stop.
  const system = createSystemModule(context, { registration });
  const accounts = createAccountsModule(context);
  const auth = createAuthModule(context, { accounts });
  const domains = createDomainsModule(context);
  // Events for the organisations' webhooks: the modules that emit take `webhooks.events`.
  const webhooks = createWebhooksModule(context);
  const apiTokens = createApiTokensModule(context);
  const adminUsers = createAdminUsersModule(context, { domains });
  const hierarchy = createHierarchyModule(context, { accounts, adminUsers });
  // Knowledge bases: agents are given some (checked on save) and search them through their knowledge tool.
  const knowledgeBase = createKnowledgeBaseModule(context);
  const agents = createAgentsModule(context, {
    hierarchy,
    knowledgeBasesOf: knowledgeBase.knowledgeBase.knowledgeBasesOf,
  });
  const calendars = createCalendarsModule(context, { agents: agents.agents });
  const runtime = createRuntimeModule(context, {
    agents: agents.agents,
    calendar: calendars.calendar,
    schedule: calendars.schedule,
    templates: agents.templates,
    webhooks: webhooks.events,
    knowledge: knowledgeBase.knowledgeBase.search,
  });
  const inbox = await createInboxModule(context, {
    agents: agents.agents,
    runtime,
    sandbox,
    webhooks: webhooks.events,
  });
  const contacts = createContactsModule(context, { realtime: inbox.realtime, webhooks: webhooks.events });
  const logs = createLogsModule(context);
  const profiles = createProfilesModule(context, { inbox: inbox.inbox });
  const search = createSearchModule(context);
  const notificationsModule = createNotificationsModule(context, {
    realtime: inbox.realtime,
    inbox: inbox.inbox,
    webhooks: webhooks.webhooks,
  });
  // With voice workers, SIP calls, outbound calls and the demo's calls run in them (the API relays SIP by
  // Call-ID, or each listens on its own port; outbound calls are stored here and dialled there).
  const voiceWorkers =
    !worker && config.voice.workers > 0 ? createVoiceWorkers(context, { realtime: inbox.realtime }) : null;
  // Voice's call events go to the webhooks and, for a missed call, to the notifications. A worker tells the
  // API process which calls it carries.
  const voice = createVoiceModule(context, {
    ...(worker ? { onCall: worker.onCall } : {}),
    ...(voiceWorkers ? { workers: voiceWorkers } : {}),
    agents: agents.agents,
    runtime,
    webhooks: notificationsModule.hearCalls(webhooks.events),
    realtime: inbox.realtime,
    publicCallAgent: profiles.profiles.publicCallAgent,
  });
  // Agent test suites: their scenarios' calls go through voice's pipeline (in a voice worker when one is up).
  const agentTests = createAgentTestsModule(context, { agents: agents.agents, runtime, voice });
  // SIP developer settings: the edge's allow-lists, flood limits and captures (filed under the organisation
  // holding a dialled number), outbound routes (trunks), and our registrations to PBXs.
  const sipSettings = await createSipSettingsModule(context, {
    realtime: inbox.realtime,
    numberOrg: numberOrgLookup(db),
  });
  // Phone numbers and outbound calls (the agent calls out through voice's pipeline), through the
  // organisation's outbound route (its trunk) when it has one; transfers to SIP URIs have their hosts checked
  // as trunks' are.
  const numbers = createNumbersModule(context, {
    agents: agents.agents,
    voice,
    notifications: notificationsModule.notifications,
    outbound: {
      resolveTrunk: (organizationId, to) => sipSettings.trunkFor(organizationId, to),
      resolveSipHost: (host, port) => sipSettings.service.resolveDestination(host, port),
      ...(voiceWorkers ? { workers: voiceWorkers } : {}),
    },
  });
  worker?.serve({
    tasks: {
      dial: ({ callId, detect }) => numbers.outbound.dialStored(callId, detect),
      demoCalls: ({ agentUsername }) => voice.demoCalls(agentUsername),
      scenarioCall: (input) => voice.scenarioCall(input),
    },
    startCall: voice.startCallSession,
  });
  // SIP calls on SIP_PORT; listed after voice so it stops first (hanging up its calls into the sessions).
  const sip = await createSipModule(context, {
    voice,
    numbers: numbers.numbers,
    edge: sipSettings.edge,
    ...(voiceWorkers ? { workers: voiceWorkers } : {}),
    ...(worker?.sipTransport ? { transport: worker.sipTransport } : {}),
  });
  // Transfers dial their destinations through the numbers module's outbound calls (which use voice: the one
  // dependency set after both exist).
  voice.useTransferDialer((input) => numbers.outbound.dialTransfer(input));
  // Outbound tasks: texts through the inbox's SMS path, calls through the numbers module's outbound calls.
  const tasks = createTasksModule(context, {
    agents: agents.agents,
    inbox: inbox.inbox,
    realtime: inbox.realtime,
    webhooks: webhooks.events,
    outbound: numbers.outbound,
    listFinished: notificationsModule.taskListFinished,
  });
  // The prepaid wallet over the ledger: card and lightning top-ups, balance and transactions.
  const wallet = createWalletModule(context);
  // Withdrawals from it: lightning (the node pays the invoice) and PayPal / Venmo payouts.
  const withdrawals = createWithdrawalsModule(context, { wallet });
  // Plans and subscriptions: payments post to the same ledger; premium follows the subscription.
  const billing = createBillingModule(context, { ledger: wallet.ledger });
  // Usage debits: a periodic sweep charges the wallets for metered usage, priced by each organisation's plan.
  const usage = createUsageModule(context, {
    ledger: wallet.ledger,
    notifications: notificationsModule.notifications,
  });
  // Referral rewards (a hook on the ledger's payments: top-ups and plans), claims, and super admins' refunds.
  const referrals = createReferralsModule(context, { wallet, accounts });
  const modules: { routes: readonly BoundRoute[]; stop?: () => Promise<void> }[] = [
    system,
    auth,
    accounts,
    hierarchy,
    adminUsers,
    domains,
    webhooks,
    apiTokens,
    knowledgeBase,
    agents,
    agentTests,
    calendars,
    runtime,
    inbox,
    contacts,
    logs,
    profiles,
    notificationsModule,
    search,
    voice,
    numbers,
    sip,
    sipSettings,
    tasks,
    wallet,
    withdrawals,
    billing,
    usage,
    referrals,
  ];

  // Jobs run once every module registered its own; on close they stop (running ones get half the shutdown
  // grace to finish) before the modules, and the modules (last first) before what they use.
  await jobs.start();
  if (!worker) {
    await sipSettings.start();
    await sipSettings.attach(sip.server);
    await tasks.start();
    await usage.start();
    await numbers.start();
    await billing.start();
    await runtime.quietTexts.start();
  }
  await voice.start();
  if (voiceWorkers) {
    context.voiceWorkers = voiceWorkers;
    voiceWorkers.start(sip.server);
  }
  // The demo's latest calls: simulated callers talk with its agent through the call pipeline, in the background.
  if (seeded && config.demoCalls) await jobs.send(demoCallsJob, { agentUsername: DEMO_CALLED_AGENT });
  app.addHook("preClose", async () => {
    // The workers first: they hang up their calls while the database (PGlite served from here) still answers.
    await voiceWorkers?.stop(config.shutdownGraceMs / 2);
    await jobs.stop(config.shutdownGraceMs / 2);
    for (const module of [...modules].reverse()) await module.stop?.();
    stopFollowingAccess();
    await notifications.stop();
  });

  app.decorate("context", context);
  app.decorate("voice", voice);
  app.decorate("numbers", numbers);
  app.decorate("sipSettings", sipSettings);
  app.decorate("tasks", tasks);
  app.decorate("wallet", wallet);
  app.decorate("withdrawals", withdrawals);
  app.decorate("billing", billing);
  app.decorate("usage", usage);
  app.decorate("referrals", referrals);
  installErrorHandler(app);
  // Uploads: each route sets its own smaller limit (profile images 2 MB).
  await app.register(multipart, { limits: { fileSize: 25 * 1024 * 1024, files: 1, fields: 20, parts: 25 } });
  // The realtime endpoint (inbox): registered before the routes so it can take over their upgrades.
  await app.register(websocket, {
    options: {
      maxPayload: 64 * 1024,
      // A browser offering [WS_BEARER_PROTOCOL, token] gets the protocol back, never its token.
      handleProtocols: (protocols: Set<string>) =>
        protocols.has(WS_BEARER_PROTOCOL) ? WS_BEARER_PROTOCOL : (protocols.values().next().value ?? false),
    },
  });
  // Form posts (the carriers' webhooks): repeated fields become lists, as the signature check expects.
  await app.register(formbody);
  keepRawWebhookBodies(app);
  keepRawBillingWebhookBodies(app);
  // Text of queries, path parameters and JSON bodies cleaned before any route validates it.
  registerInputCleaning(app);
  registerRoutes(
    app,
    context,
    routeTable,
    modules.flatMap((module) => module.routes),
  );
  registerFiles(app, storage);
  await registerApiDocs(app, routeTable, { version: VERSION, publicUrl: config.publicUrl });
  await registerWebApp(app, config.webDistDir, { servePage: profiles.servePage });
  return app;
}
