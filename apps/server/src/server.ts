import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { installProcessGuard } from "./process-guard.ts";

async function main(): Promise<void> {
  // From the first line: an error nobody handled is logged and counted (/readyz), never the end of the server.
  installProcessGuard();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config);
  installProcessGuard(app.log);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = config.publicUrl.includes(`:${config.port}`)
    ? config.publicUrl.replace(`:${config.port}`, `:${port}`)
    : config.publicUrl;
  console.log(
    `Switchboard is running at ${url}/app (database: ${config.databaseUrl ? "PostgreSQL server" : `PGlite in ${config.dataDir}/pglite`})`,
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: no new connections, finishing requests in flight");
    const timer = setTimeout(() => {
      app.log.error("shutdown took too long; exiting");
      process.exit(1);
    }, config.shutdownGraceMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, "error while shutting down");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(`Switchboard failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
