import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { testClient } from "../../../test/api-client.ts";
import { createFakeCallLeg } from "../../../test/fake-call-leg.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { concat, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import { accounts, memberships, users } from "../../db/schema/index.ts";
import { issueSessionToken } from "../auth/sessions.ts";

/** A call reaches the organisation's webhooks: call.started when it is set up, call.ended with its transcript. */

type Received = { headers: Record<string, string>; body: string };

let app: FastifyInstance;
let receiver: Server;
let url: string;
const received: Received[] = [];
let frontDesk: typeof accounts.$inferSelect;
let question: Int16Array;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  [app, question] = await Promise.all([
    buildTestApp({ DEMO_DATA: "true", OUTBOUND_ALLOWLIST: "127.0.0.1:*" }),
    spokenFixture("Do you see children?"),
  ]);
  const rows = await app.context.database.db.select().from(accounts).where(eq(accounts.accountType, "agent"));
  const row = rows.find((r) => (r.details as { agentName?: string }).agentName === "Front Desk");
  if (!row) throw new Error("demo Front Desk agent missing");
  frontDesk = row;
});
afterAll(async () => {
  await app.close();
  receiver.close();
});

async function ownerToken(): Promise<string> {
  const db = app.context.database.db;
  const orgId = frontDesk.organizationId as number;
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(memberships.accountId, orgId));
  if (!owner) throw new Error("demo owner missing");
  return issueSessionToken(db, owner.id, orgId);
}

async function until<T>(read: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + within(ms);
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("not received in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("call webhooks", () => {
  it("a receiver gets signed call.started and call.ended (transcript, recording) for a call", async () => {
    const created = await testClient(app)(await ownerToken()).call(api.createWebhook, {
      body: { url, label: "calls", type: "all" },
    });
    const verifier = new StandardWebhook(created.secret.replace(/^whsec_/, ""));

    const fake = createFakeCallLeg({ speed: 3 });
    const session = app.voice.startCallSession(fake.leg, {
      agentAccountId: frontDesk.id,
      settings: { recordCalls: true },
    });
    const uuid = await session.ready;
    await fake.untilAgentDone(300);
    fake.say(concat(question, silence(1200)));
    await fake.untilAgentDone(300);
    fake.callerHangsUp();
    const summary = await session.ended;
    expect(summary.recordingUrl).toMatch(/\/files\/recordings\/[0-9a-f]+\.wav$/);

    const eventOf = (type: string) =>
      received
        .map((r) => ({ r, payload: JSON.parse(r.body) as { type: string; data: Record<string, unknown> } }))
        .find((e) => e.payload.type === type);
    const started = await until(() => eventOf("call.started"));
    const ended = await until(() => eventOf("call.ended"));
    for (const { r } of [started, ended]) expect(() => verifier.verify(r.body, r.headers)).not.toThrow();
    expect(started.payload.data).toMatchObject({ agentId: frontDesk.id, direction: "inbound" });
    expect(ended.payload.data).toMatchObject({
      agentId: frontDesk.id,
      outcome: "caller-hangup",
      recordingUrl: summary.recordingUrl,
    });
    const transcript = ended.payload.data.transcript as { role: string; text: string }[];
    // A recorded call opens with its recording notice, then the greeting.
    expect(transcript.map((t) => t.role)).toEqual(["assistant", "assistant", "user", "assistant"]);
    expect(transcript[0]?.text).toBe(api.CALL_SETTINGS_DEFAULTS.recordingNotice);
    expect(transcript[2]?.text).toBe("do you see children");
    expect(transcript[3]?.text).toContain("we see children");
    expect(uuid).toBeTruthy();
  });
});
