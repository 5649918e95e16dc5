import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Database } from "../../db/client.ts";
import { createSystemRepository } from "./system.repository.ts";

export const HEARTBEAT_MS = 30_000;
/** An instance that has not reported for this long is taken as gone. */
export const INSTANCE_STALE_SECONDS = 90;

/** Records this process in `server_instances`, keeps it fresh while it runs and marks it stopped on close. */
export async function startInstanceRegistration(db: Database, version: string) {
  const repository = createSystemRepository(db);
  const id = randomUUID();
  const startedAt = await repository.insertInstance({
    id,
    hostname: os.hostname(),
    pid: process.pid,
    version,
  });
  const timer = setInterval(() => {
    repository.touchInstance(id).catch(() => {});
  }, HEARTBEAT_MS);
  timer.unref();
  return {
    id,
    startedAt,
    activeInstances: () => repository.countActiveInstances(INSTANCE_STALE_SECONDS),
    async stop() {
      clearInterval(timer);
      await repository.stopInstance(id);
    },
  };
}

export type InstanceRegistration = Awaited<ReturnType<typeof startInstanceRegistration>>;
