import { readFileSync } from "node:fs";
import { routeTable } from "@switchboard/api";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { DestinationStream } from "pino";
import type { AppContext } from "./app-context.ts";
import type { Config } from "./config.ts";
import { type DatabaseHandle, openDatabase } from "./db/client.ts";
import { migrateDatabase } from "./db/migrate.ts";
import { DEMO_USERS, seedDemoData } from "./db/seed.ts";
import { registerApiDocs } from "./http/api-docs.ts";
import { installErrorHandler } from "./http/error-handler.ts";
import { registerRoutes } from "./http/routes.ts";
import { registerWebApp } from "./http/web-app.ts";
import { createLogger } from "./logger.ts";
import { createAccountsRepository } from "./modules/accounts/accounts.repository.ts";
import { accountsRoutes } from "./modules/accounts/accounts.routes.ts";
import { createAccessResolver } from "./modules/auth/access.ts";
import { createAuthRepository } from "./modules/auth/auth.repository.ts";
import { authRoutes } from "./modules/auth/auth.routes.ts";
import { createAuthService } from "./modules/auth/auth.service.ts";
import { resolveSecretKey } from "./modules/auth/secrets.ts";
import { systemRoutes } from "./modules/system/system.routes.ts";
import { startInstanceRegistration } from "./modules/system/system.service.ts";
import { outboxEmailProvider, smtpEmailProvider } from "./providers/email/email-provider.ts";
import { createOutbox } from "./providers/outbox/outbox.ts";
import { outboxSmsProvider } from "./providers/sms/sms-provider.ts";

export const VERSION: string = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).version;

function demoSignInHelp(publicUrl: string): string {
  return [
    `Demo data created. Sign in at ${publicUrl}/signin with one of:`,
    ...Object.entries(DEMO_USERS).map(([role, email]) => `  ${role.padEnd(10)} ${email}`),
    `The 6-digit code arrives in the dev outbox: ${publicUrl}/api/dev/outbox (also printed here).`,
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
    trustProxy: true,
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
  const sms = outboxSmsProvider(outbox);
  const secretKey = await resolveSecretKey(db, config.secretKey);
  const access = createAccessResolver(db);
  const context: AppContext = {
    config,
    database,
    log: app.log,
    instance: { id: registration.id, startedAt: registration.startedAt, version: VERSION },
    access,
    secretKey,
    outbox,
    email,
    sms,
  };
  const auth = createAuthService({
    repo: createAuthRepository(db),
    accounts: createAccountsRepository(db),
    email,
    sms,
    secretKey,
    loadAccount: access.loadAccount,
  });

  app.decorate("context", context);
  installErrorHandler(app);
  registerRoutes(app, context, routeTable, [
    ...systemRoutes(registration),
    ...authRoutes(auth),
    ...accountsRoutes(),
  ]);
  await registerApiDocs(app, routeTable, { version: VERSION, publicUrl: config.publicUrl });
  await registerWebApp(app, config.webDistDir);
  return app;
}
