import { readFileSync } from "node:fs";
import path from "node:path";
import multipart from "@fastify/multipart";
import websocket from "@fastify/websocket";
import { routeTable } from "@switchboard/api";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { DestinationStream } from "pino";
import { ACCESS_CHANGED_CHANNEL, ACCESS_TABLES, createAccessResolver } from "./access/access.ts";
import { resolveSecretKey } from "./access/secrets.ts";
import type { AppContext } from "./app-context.ts";
import type { Config } from "./config.ts";
import { type DatabaseHandle, openDatabase } from "./db/client.ts";
import { migrateDatabase } from "./db/migrate.ts";
import { followNotices } from "./db/notice-cache.ts";
import { createNotificationListener } from "./db/notifications.ts";
import { DEMO_USERS, DEMO_WHITE_LABEL_HOST, seedDemoData } from "./db/seed.ts";
import { registerApiDocs } from "./http/api-docs.ts";
import { installErrorHandler } from "./http/error-handler.ts";
import { registerFiles } from "./http/files.ts";
import { createOutbound } from "./http/outbound.ts";
import { registerRoutes } from "./http/routes.ts";
import { registerWebApp } from "./http/web-app.ts";
import { createWriteListeners } from "./http/write-listeners.ts";
import { createJobRunner } from "./jobs/runner.ts";
import { createLogger } from "./logger.ts";
import { createAccountsRepository } from "./modules/accounts/accounts.repository.ts";
import { accountsRoutes } from "./modules/accounts/accounts.routes.ts";
import { createAccountsService } from "./modules/accounts/accounts.service.ts";
import { createAdminUsersRepository } from "./modules/admin-users/admin-users.repository.ts";
import { adminUsersRoutes } from "./modules/admin-users/admin-users.routes.ts";
import { createAdminUsersService } from "./modules/admin-users/admin-users.service.ts";
import { createAgentsRepository } from "./modules/agents/agents.repository.ts";
import { agentsRoutes, appsRoutes, templatesRoutes } from "./modules/agents/agents.routes.ts";
import { createAgentsService } from "./modules/agents/agents.service.ts";
import { createAppsRepository } from "./modules/agents/apps.repository.ts";
import { createAppsService } from "./modules/agents/apps.service.ts";
import { createTemplatesRepository } from "./modules/agents/templates.repository.ts";
import { createTemplatesService } from "./modules/agents/templates.service.ts";
import { createAuthRepository } from "./modules/auth/auth.repository.ts";
import { authRoutes } from "./modules/auth/auth.routes.ts";
import { createAuthService } from "./modules/auth/auth.service.ts";
import { createDomainsRepository } from "./modules/domains/domains.repository.ts";
import { domainsRoutes } from "./modules/domains/domains.routes.ts";
import { createDomainsService } from "./modules/domains/domains.service.ts";
import { createHierarchyRepository } from "./modules/hierarchy/hierarchy.repository.ts";
import { hierarchyRoutes } from "./modules/hierarchy/hierarchy.routes.ts";
import { createHierarchyService } from "./modules/hierarchy/hierarchy.service.ts";
import { createInboxModule, registerFormBodies } from "./modules/inbox/inbox.module.ts";
import { createLogsModule } from "./modules/logs/logs.module.ts";
import { createRuntimeModule } from "./modules/runtime/runtime.module.ts";
import { systemRoutes } from "./modules/system/system.routes.ts";
import { startInstanceRegistration } from "./modules/system/system.service.ts";
import { outboxEmailProvider, smtpEmailProvider } from "./providers/email/email-provider.ts";
import { createOutbox } from "./providers/outbox/outbox.ts";
import { sandboxCarrier } from "./providers/sms/sandbox-carrier.ts";
import { twilioSmsProvider } from "./providers/sms/twilio.ts";
import { localStorageProvider } from "./providers/storage/storage-provider.ts";

export const VERSION: string = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).version;

function demoSignInHelp(publicUrl: string): string {
  return [
    `Demo data created. Sign in at ${publicUrl}/signin with one of:`,
    ...Object.entries(DEMO_USERS).map(([role, email]) => `  ${role.padEnd(10)} ${email}`),
    `The 6-digit code arrives in the dev outbox: ${publicUrl}/api/dev/outbox (also printed here).`,
    `The partner's white-label host: ${publicUrl.replace(/\/\/[^/:]+/, `//${DEMO_WHITE_LABEL_HOST}`)}/app`,
  ].join("\n");
}

export type BuildOptions = {
  /** An already-open database (tests pass one cloned from a migrated template). Closed with the app. */
  database?: DatabaseHandle;
  /** Where the logs go; stdout by default. */
  logDestination?: DestinationStream;
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

  const database = options.database ?? (await openDatabase(config));
  app.addHook("onClose", async () => {
    await database.close();
  });
  await migrateDatabase(database);

  if (config.demoData && (await seedDemoData(database.db))) {
    app.log.info("seeded the demo hierarchy");
    console.log(demoSignInHelp(config.publicUrl));
  }

  const registration = await startInstanceRegistration(database.db, VERSION);
  app.addHook("preClose", async () => {
    await registration
      .stop()
      .catch((error: unknown) => app.log.warn({ err: error }, "could not mark instance stopped"));
  });

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
  // A session's caller is kept until tokens, users, memberships or accounts change: anywhere (migration
  // 0010's notices), or in this process (at once, before its notice arrives).
  const unfollowAccess = await followNotices(
    access.callerCache,
    notifications,
    ACCESS_CHANGED_CHANNEL,
    () => null,
  );
  const stopWatchingAccess = database.onWrite((table) => {
    if (ACCESS_TABLES.has(table)) access.callerCache.changedAll();
  });
  const storage = localStorageProvider(path.join(config.dataDir, "files"), config.publicUrl);
  const outbound = createOutbound({
    allowlist: config.outbound.allowlist,
    httpsOnly: config.env === "production",
    timeoutMs: config.toolTimeoutMs,
    maxBytes: 5 * 1024 * 1024,
  });
  app.addHook("onClose", () => outbound.close());
  const jobs = createJobRunner(database, { log: app.log });
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
  };
  const accountsRepository = createAccountsRepository(db);
  const auth = createAuthService({
    repo: createAuthRepository(db),
    accounts: accountsRepository,
    email,
    sms,
    secretKey,
    loadAccount: access.loadAccount,
  });

  const domains = createDomainsService({ repo: createDomainsRepository(db), publicUrl: config.publicUrl });
  const adminUsers = createAdminUsersService({
    repo: createAdminUsersRepository(db),
    email,
    publicUrl: config.publicUrl,
    allowLocalRedirects: config.env !== "production",
    isPartnerHost: domains.isPartnerHost,
  });
  const hierarchy = createHierarchyService({
    repo: createHierarchyRepository(db),
    accounts: accountsRepository,
    access,
    adminUsers,
  });

  const templatesRepository = createTemplatesRepository(db);
  const agents = createAgentsService({
    repo: createAgentsRepository(db),
    access,
    findTemplate: templatesRepository.find,
  });
  const apps = createAppsService({ repo: createAppsRepository(db), agents, outbound, secretKey });
  const templates = createTemplatesService({ repo: templatesRepository, agents, hierarchy });
  const runtime = createRuntimeModule(context, { agents, templates });
  const inbox = await createInboxModule(context, { agents, runtime, sandbox });
  // Jobs run once every feature registered its own; on close they stop (running ones get half the
  // shutdown grace to finish) before anything they use does.
  await jobs.start();
  app.addHook("preClose", async () => {
    await jobs.stop(config.shutdownGraceMs / 2);
    await inbox.stop();
    unfollowAccess();
    stopWatchingAccess();
    await notifications.stop();
  });
  const logs = createLogsModule(context);

  app.decorate("context", context);
  installErrorHandler(app);
  // Uploads: each route sets its own smaller limit (profile images 2 MB).
  await app.register(multipart, { limits: { fileSize: 25 * 1024 * 1024, files: 1, fields: 20, parts: 25 } });
  // The realtime endpoint (inbox): registered before the routes so it can take over their upgrades.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  registerFormBodies(app);
  registerRoutes(app, context, routeTable, [
    ...systemRoutes(registration),
    ...authRoutes(auth),
    ...accountsRoutes(createAccountsService({ repo: accountsRepository, storage })),
    ...hierarchyRoutes(hierarchy),
    ...adminUsersRoutes(adminUsers),
    ...domainsRoutes(domains),
    ...agentsRoutes(agents),
    ...templatesRoutes(templates),
    ...appsRoutes(apps),
    ...runtime.routes,
    ...inbox.routes,
    ...logs.routes,
  ]);
  registerFiles(app, storage);
  await registerApiDocs(app, routeTable, { version: VERSION, publicUrl: config.publicUrl });
  await registerWebApp(app, config.webDistDir);
  return app;
}
