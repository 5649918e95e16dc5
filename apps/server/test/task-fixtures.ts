import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { testClient } from "./api-client.ts";
import { buildHierarchy, prepareSmsAgent } from "./fixtures.ts";

/**
 * What a task test starts from: the hierarchy, agent A1 answering texts on `number`, and O1's owner with
 * calling hours that always include now, whatever the clock says.
 */
export async function prepareTaskAgent(
  app: FastifyInstance,
  number: string,
  options: { greeting?: string; maxConcurrent?: number; dailyLimit?: number } = {},
) {
  const world = await buildHierarchy(app);
  await prepareSmsAgent(app, world, {
    number,
    ...(options.greeting !== undefined ? { greeting: options.greeting } : {}),
  });
  const owner = testClient(app)(world.members.o1Owner.token, world.accounts.O1.id);
  await owner.call(api.saveTaskLimits, {
    body: {
      callingHoursStart: "00:00",
      callingHoursEnd: "23:59",
      defaultTimeZone: "UTC",
      ...(options.maxConcurrent !== undefined ? { maxConcurrent: options.maxConcurrent } : {}),
      ...(options.dailyLimit !== undefined ? { dailyLimit: options.dailyLimit } : {}),
    },
  });
  return { world, owner };
}
