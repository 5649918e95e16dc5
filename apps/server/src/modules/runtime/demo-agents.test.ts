import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClient, testClient } from "../../../test/api-client.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { parseServerSentEvents } from "../../../test/model-protocol-server.ts";
import { accounts, users } from "../../db/schema/index.ts";
import { DEMO_USERS } from "../../demo/seed.ts";
import { issueSessionToken } from "../auth/sessions.ts";

/** The demo's agents, as seeded, answer from their instructions with the sandbox model. */

let app: FastifyInstance;
let client: TestClient;
let token: string;
const agentIds: Record<string, number> = {};

beforeAll(async () => {
  app = await buildTestApp({ DEMO_DATA: "true" });
  client = testClient(app);
  const db = app.context.database.db;
  const [owner] = await db.select().from(users).where(eq(users.email, DEMO_USERS.owner));
  const [org] = await db.select().from(accounts).where(eq(accounts.username, "bluebird-dental"));
  if (!owner || !org) throw new Error("demo data missing");
  token = await issueSessionToken(db, owner.id, org.id);
  for (const row of await db.select().from(accounts).where(eq(accounts.organizationId, org.id)))
    if (row.accountType === "agent")
      agentIds[String((row.details as { agentName?: string }).agentName)] = row.id;
});
afterAll(async () => {
  await app.close();
});

async function ask(
  agentId: number | undefined,
  message: string,
  stage: "production" | "staging" = "production",
) {
  // The test chat answers server-sent events (text), which the client hands back as text.
  const res: unknown = await client(token).call(api.testChat, { body: { agentId, stage, message } });
  // biome-ignore lint/suspicious/noExplicitAny: events read loosely.
  const events = parseServerSentEvents(res as string) as { event: string; data: any }[];
  const done = events.filter((e) => e.event === "done");
  return { events, greeting: done[0]?.data.text as string, answer: done.at(-1)?.data.text as string };
}

describe("the demo agents with the sandbox model", () => {
  it("Front Desk greets and answers from its Q/A pairs and facts", async () => {
    const kids = await ask(agentIds["Front Desk"], "Do you see children?");
    expect(kids.greeting).toBe("Thank you for calling Bluebird Dental, how can I help you today?");
    expect(kids.answer).toBe("Yes, we see children from age 3, and their first visit is free.");
    expect((await ask(agentIds["Front Desk"], "When are you open?")).answer).toBe(
      "Opening hours: Mon-Fri 8am-5pm.",
    );
    expect((await ask(agentIds["Front Desk"], "How much does whitening cost?")).answer).toBe(
      "Yes, in-office whitening takes about an hour and costs $350.",
    );
  });

  it("Front Desk books a check-up", async () => {
    const { events, answer } = await ask(
      agentIds["Front Desk"],
      "I'd like to book a check-up the day after tomorrow at 10am. My name is Maria Lopez.",
    );
    expect(events.find((e) => e.event === "tool-result")?.data.summary).toMatch(
      /^Booked .* 10:00 am for Maria Lopez$/,
    );
    expect(answer).toContain("Booked");
  });

  it("After Hours answers and transfers emergencies to the on-call dentist", async () => {
    const er = await ask(agentIds["After Hours"], "Where is the nearest emergency room?");
    expect(er.greeting).toBe("You've reached Bluebird Dental after hours. How can I help?");
    expect(er.answer).toContain("Portland General");
    const transfer = await ask(agentIds["After Hours"], "I need to talk to a dentist now, it's an emergency");
    expect(transfer.events.find((e) => e.event === "tool-call")?.data.arguments.destination).toBe(
      "+15035550111",
    );
  });
});
