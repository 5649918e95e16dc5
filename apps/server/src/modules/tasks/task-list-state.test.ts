import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import type { testClient } from "../../../test/api-client.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { prepareTaskAgent } from "../../../test/task-fixtures.ts";

const AGENT_NUMBER = "+15035550177";

function csvForm(text: string) {
  const form = new FormData();
  form.append("csv", new Blob([text], { type: "text/csv" }), "follow-ups.csv");
  return form;
}

describe("a text task list that ran to its end", () => {
  let app: FastifyInstance;
  let owner: ReturnType<ReturnType<typeof testClient>>;
  let agentId: number;

  beforeAll(async () => {
    app = await buildTestApp();
    const prepared = await prepareTaskAgent(app, AGENT_NUMBER, { greeting: "Hello from the front desk." });
    owner = prepared.owner;
    agentId = prepared.world.accounts.A1.id;
  }, within(120_000));
  afterAll(async () => {
    await app.close();
  });

  it(
    "shows Finished, not Running, once every task is done; its texts are not calls",
    async () => {
      const upload = await owner.call(api.uploadTaskCsv, {
        query: { agentId, channel: "text", message: "Hi {name}, your cleaning is due." },
        form: csvForm(["Phone Number,Name", "(503) 555-0141,Ann", "(503) 555-0142,Bo"].join("\n")),
      });
      const listId = upload.list?.id as number;
      expect(upload.list?.state).toBe("active");
      await app.tasks.idle();

      const { lists } = await owner.call(api.listTaskLists, { query: {} });
      const list = lists.find((item) => item.id === listId);
      expect(list?.counts.byState).toMatchObject({ completed: 2 });
      expect(list?.state).toBe("finished");

      // Calls lists calls: the two texts are not there, and the dashboard does not count them as calls.
      const calls = await owner.call(api.listLogs, { query: {} });
      expect(calls.totalCount).toBe(0);
      const texts = await owner.call(api.listLogs, { query: { channel: "sms", fields: "toNumber" } });
      expect(texts.logs.map((row) => row.toNumber).sort()).toEqual(["+15035550141", "+15035550142"]);
      const dashboard = await owner.call(api.getDashboardMetrics, { query: {} });
      const text = (name: string) => dashboard.metrics.find((m) => m.metric.name === name)?.text;
      expect(text("outboundCalls")).toBe("0");
      expect(text("avgCallDuration")).toBe("0");
      expect(text("tasksCompleted")).toBe("2");
    },
    within(60_000),
  );
});
