import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config.ts";
import type { DatabaseHandle } from "./db/client.ts";

/** What every module's handlers and services may use: built once per app. */
export type AppContext = {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  instance: { id: string; startedAt: Date; version: string };
};
