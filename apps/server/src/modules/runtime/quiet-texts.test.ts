import * as api from "@switchboard/api";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { testClient } from "../../../test/api-client.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { waitFor } from "../../../test/wait-for.ts";
import { executeRows } from "../../db/client.ts";
import { conversationLogs, conversations } from "../../db/schema/index.ts";
import { JOB_SCHEMA } from "../../jobs/schema.ts";
import { analysable } from "./quiet-texts.ts";

/**
 * Text conversations have no hang-up: an SMS conversation is analysed once it has been quiet for
 * TEXT_ANALYSIS_QUIET_SECONDS (here 2), and again after a later quiet spell when it goes on.
 */

const AGENT_NUMBER = "+15035550123";
const PERSON = "+15035550177";

let app: FastifyInstance;
let owner: ReturnType<ReturnType<typeof testClient>>;
let agentId: number;

beforeAll(async () => {
  app = await buildTestApp({ TEXT_ANALYSIS_QUIET_SECONDS: "2" });
  const world = await buildHierarchy(app);
  agentId = world.accounts.A1.id;
  await prepareSmsAgent(app, world, { number: AGENT_NUMBER, instructions: "Opening hours: 8am-5pm." });
  owner = testClient(app)(world.members.o1Owner.token);
  const { staging } = await owner.call(api.getCampaigns, { query: { agentId } });
  await owner.call(api.saveCampaign, {
    body: {
      agentId,
      agentInstructions: staging.agentInstructions,
      analysis: {
        successRule: "answered the question",
        fields: [
          { name: "email", type: "text", description: "The person's e-mail address" },
          { name: "callbackNumber", type: "text", description: "The number to call back" },
        ],
      },
    },
  });
  await owner.call(api.publishAgent, { body: { agentId } });
}, within(60_000));
afterAll(async () => {
  await app?.close();
});

const db = () => app.context.database.db;

async function smsConversation() {
  const [row] = await db().select().from(conversations).where(eq(conversations.fromAddress, PERSON));
  return row;
}

const analysisOf = (outcome: Record<string, unknown> | undefined) =>
  (outcome?.analysis ?? null) as {
    summary: string;
    analyzedAt: number;
    fields: Record<string, unknown>;
  } | null;

describe("text conversations are analysed once they go quiet", () => {
  it("a text conversation is due after its quiet time, a call only when it ended", () => {
    const lastActivityAt = new Date(1_000_000);
    const text = { status: "active", channel: "sms", lastActivityAt };
    expect(analysable(text, 1_000_000 + 1999, 2000)).toBe(false);
    expect(analysable(text, 1_000_000 + 2000, 2000)).toBe(true);
    expect(analysable({ ...text, channel: "web" }, 1_000_000 + 2000, 2000)).toBe(true);
    expect(analysable({ ...text, channel: "voice" }, 1_000_000 + 9_999_999, 2000)).toBe(false);
    expect(analysable({ ...text, channel: "voice", status: "ended" }, 0, 2000)).toBe(true);
  });

  it("an SMS conversation gets its summary and fields after the quiet time, and again when it goes on", {
    timeout: within(60_000),
  }, async () => {
    await owner.call(api.sandboxInboundSms, {
      body: { from: PERSON, to: AGENT_NUMBER, text: "When do you open? My e-mail is jane@example.com" },
    });
    const first = await waitFor(smsConversation, (row) => analysisOf(row?.outcome) !== null, within(30_000));
    const analysis = analysisOf(first?.outcome);
    expect(first?.status).toBe("active");
    expect(analysis?.fields.email).toBe("jane@example.com");
    expect(analysis?.fields.callbackNumber ?? null).toBeNull();
    expect(analysis?.summary).not.toBe("");
    expect(analysis?.analyzedAt).toBeGreaterThanOrEqual(first?.lastActivityAt.getTime() ?? Infinity);
    // In the log row's data, where Calls' columns, filters, exports and metrics read it.
    const [log] = await db()
      .select()
      .from(conversationLogs)
      .where(eq(conversationLogs.uuid, first?.uuid ?? ""));
    expect(log?.data.email).toBe("jane@example.com");

    // The person writes again: the same conversation, analysed again after the next quiet spell.
    await owner.call(api.sandboxInboundSms, {
      body: { from: PERSON, to: AGENT_NUMBER, text: "Or call me back on 503 555 0100" },
    });
    const second = await waitFor(
      smsConversation,
      (row) => (analysisOf(row?.outcome)?.analyzedAt ?? 0) > (analysis?.analyzedAt ?? 0),
      within(30_000),
    );
    expect(second?.uuid).toBe(first?.uuid);
    expect(analysisOf(second?.outcome)?.fields).toMatchObject({
      email: "jane@example.com",
      callbackNumber: expect.stringContaining("555"),
    });
  });
});

describe("the quiet-texts check under a clock that jumps", () => {
  it("keeps to its pace when the clock jumps a day ahead (PGlite's clock is the process's)", async () => {
    const checks = async () =>
      Number(
        (
          await executeRows<{ n: number }>(
            db(),
            sql.raw(`select count(*)::int as n from ${JOB_SCHEMA}.job where name = 'runtime-quiet-texts'`),
          )
        )[0]?.n ?? 0,
      );
    const before = await checks();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 24 * 3600_000 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      // Checked once a second here: a few checks, not one every few milliseconds.
      expect((await checks()) - before).toBeLessThan(10);
    } finally {
      vi.useRealTimers();
    }
  });
});
