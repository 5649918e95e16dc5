import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp, createSharedTestDatabase, testConfig } from "../../../test/helpers.ts";
import { waitUntil } from "../../../test/wait-for.ts";
import { buildApp } from "../../app.ts";
import { executeRows } from "../../db/client.ts";
import { outboxMessages, webhookEndpoints } from "../../db/schema/index.ts";
import { JOB_SCHEMA } from "../../jobs/schema.ts";
import { deliverWebhookJob } from "./jobs.ts";
import { signPayload } from "./signing.ts";

const AGENT_NUMBER = "+15035550123";

type Received = { path: string; headers: Record<string, string>; body: string; answered: number };

/** A receiver on loopback: keeps every request and answers what `answer` says (200 by default). */
async function startReceiver() {
  const received: Received[] = [];
  let answer: (request: Omit<Received, "answered">) => number | Promise<number> = () => 200;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
      );
      const request = { path: req.url ?? "/", headers, body };
      const status = await answer(request);
      received.push({ ...request, answered: status });
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "thanks" : "receiver broke");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (p = "/hooks") => `http://127.0.0.1:${port}${p}`,
    received,
    answer(next: typeof answer) {
      answer = next;
    },
    events: (type: string) => received.filter((r) => JSON.parse(r.body).type === type),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const env = {
  OUTBOUND_ALLOWLIST: "127.0.0.1:*",
  // Seconds: the default schedule (5 s ... 10 h) shrunk for the test.
  WEBHOOK_RETRY_SCHEDULE: "0.3,0.3,0.3",
  WEBHOOK_DISABLE_AFTER: "2",
};

describe("webhooks", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let shared: Awaited<ReturnType<typeof createSharedTestDatabase>>;
  let app: FastifyInstance;
  let world: Awaited<ReturnType<typeof buildHierarchy>>;
  let secret: string;
  let webhookId: number;

  beforeAll(async () => {
    receiver = await startReceiver();
    shared = await createSharedTestDatabase();
    app = await buildApp(testConfig(env), { database: await shared.open() });
    world = await buildHierarchy(app);
    await prepareSmsAgent(app, world, { number: AGENT_NUMBER });
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await shared?.drop();
  });

  const owner = () => testClient(app)(world.members.o1Owner.token);
  const verify = (r: Received) => new StandardWebhook(secret).verify(r.body, r.headers) as { type: string };

  it("adds an endpoint with its secret shown once, lists it without the secret, and refuses private addresses", async () => {
    const created = await owner().call(api.createWebhook, {
      body: { url: receiver.url(), label: "CRM", type: "all" },
    });
    expect(created.secret).toMatch(/^whsec_/);
    secret = created.secret;
    webhookId = created.webhook.id;
    const list = await owner().call(api.listWebhooks);
    expect(Array.isArray(list)).toBe(true);
    expect(list).toEqual([
      expect.objectContaining({ id: webhookId, url: receiver.url(), label: "CRM", type: "all" }),
    ]);
    expect(JSON.stringify(list)).not.toContain(secret);
    // Stored encrypted, never in clear.
    const [row] = await app.context.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, webhookId));
    expect(row?.secretEncrypted).not.toContain(secret.slice(6));

    await expectRefusal(
      owner().call(api.createWebhook, { body: { url: "http://10.0.0.7/hook", type: "all" } }),
      400,
      "This address is on a private network and cannot be reached from Switchboard.",
    );
    // Another organisation's owner sees none of it.
    expect(await testClient(app)(world.members.o2Owner.token).call(api.listWebhooks)).toEqual([]);
  });

  it("sends a signed webhook.test at once, which the standardwebhooks library verifies", async () => {
    const answer = await owner().call(api.testWebhook, { body: { url: receiver.url() } });
    expect(answer).toMatchObject({ ok: true, status: 200, excerpt: "thanks" });
    const [test] = receiver.events("webhook.test");
    if (!test) throw new Error("no test event");
    expect(test.headers["webhook-id"]).toBe(answer.messageId);
    expect(test.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(verify(test)).toMatchObject({
      type: "webhook.test",
      version: api.WEBHOOK_PAYLOAD_VERSION,
      data: { webhookId },
    });
    // The server's own signature is the Standard Webhooks one, byte for byte.
    expect(test.headers["webhook-signature"]).toBe(
      signPayload(
        secret,
        test.headers["webhook-id"] ?? "",
        Number(test.headers["webhook-timestamp"]),
        test.body,
      ),
    );
    // A tampered body does not verify.
    expect(() => verify({ ...test, body: test.body.replace("test", "tset") })).toThrow();
  });

  it("delivers message.received and message.sent of a text conversation, retrying after a 500", async () => {
    let failedOnce = false;
    receiver.answer((request) => {
      if (!failedOnce && JSON.parse(request.body).type === "message.received") {
        failedOnce = true;
        return 500;
      }
      return 200;
    });
    const texted = await owner().call(api.sandboxInboundSms, {
      body: { from: "+15035550177", to: AGENT_NUMBER, text: "What are your opening hours?" },
    });
    const received = await waitUntil(
      () => receiver.events("message.received"),
      (list) => list.length >= 2,
    );
    const sent = await waitUntil(
      () => receiver.events("message.sent"),
      (list) => list.length >= 1,
    );
    // The retry is the same event: same webhook-id, signed again.
    expect(received[0]?.answered).toBe(500);
    expect(received[1]?.answered).toBe(200);
    expect(received[1]?.headers["webhook-id"]).toBe(received[0]?.headers["webhook-id"]);
    const inbound = verify(received[1] as Received) as unknown as {
      data: { conversationId: string; text: string; from: string; to: string; sender: string };
    };
    expect(inbound.data).toMatchObject({
      conversationId: texted.roomId,
      text: "What are your opening hours?",
      from: "+15035550177",
      to: AGENT_NUMBER,
      sender: "contact",
    });
    const outbound = verify(sent[0] as Received) as unknown as { data: Record<string, unknown> };
    expect(outbound.data).toMatchObject({
      conversationId: texted.roomId,
      from: AGENT_NUMBER,
      to: "+15035550177",
      sender: "agent",
    });
    expect(String(outbound.data.text)).toContain("Mon-Fri");

    // Every attempt is logged: status, time, an excerpt of the answer.
    // The attempt is recorded once the receiver's answer is read, a moment after the receiver saw it.
    const delivery = await waitUntil(
      async () =>
        (await owner().call(api.listWebhookDeliveries, { query: { webhookId } })).deliveries.find(
          (d) => d.messageId === received[0]?.headers["webhook-id"],
        ),
      (found) => found?.status !== "pending",
    );
    expect(delivery).toMatchObject({ status: "succeeded", eventType: "message.received", attemptCount: 2 });
    expect(delivery?.attempts.map((a) => [a.status, a.excerpt])).toEqual([
      [500, "receiver broke"],
      [200, "thanks"],
    ]);
  });

  it("tells when a conversation is closed", async () => {
    const [first] = receiver.events("message.received");
    const conversationId = JSON.parse(first?.body ?? "{}").data.conversationId as string;
    await owner().call(api.closeConversation, { body: { roomId: conversationId } });
    const [closed] = await waitUntil(
      () => receiver.events("conversation.closed"),
      (list) => list.length >= 1,
    );
    expect(verify(closed as Received)).toMatchObject({
      type: "conversation.closed",
      data: { conversationId, channel: "sms", externalAddress: "+15035550177" },
    });
  });

  it("tells when a contact is created, also by an organisation API token", async () => {
    const { token } = await owner().call(api.createApiToken, { body: { description: "CRM" } });
    await testClient(app)(token).call(api.saveContact, {
      body: { data: { name: "Grace Hopper", phoneNumber: "+15035550155" } },
    });
    const [created] = await waitUntil(
      () => receiver.events("contact.created"),
      (list) => list.length >= 1,
    );
    expect(verify(created as Received)).toMatchObject({
      type: "contact.created",
      organizationId: world.accounts.O1.id,
      data: { displayName: "Grace Hopper", data: { name: "Grace Hopper" } },
    });
  });

  it("tells when the agent books an appointment", async () => {
    const agentId = world.accounts.A1.id;
    await owner().call(api.saveCampaign, {
      body: {
        agentId,
        agentInstructions: "Opening hours: Mon-Fri 8am-5pm.",
        timezone: "America/Los_Angeles",
        apps: [{ appId: "schedule", version: "1.0.0" }],
        enabledFunctions: { "schedule@1.0.0": ["checkAvailability", "bookAppointment"] },
        actions: [{ name: "schedule", durationMinutes: 30 }],
      },
    });
    await owner().call(api.publishAgent, { body: { agentId } });
    await owner().call(api.sandboxInboundSms, {
      body: {
        from: "+15035550166",
        to: AGENT_NUMBER,
        text: "Book a check-up tomorrow at 10am, my name is Jane Doe",
      },
    });
    const [booked] = await waitUntil(
      () => receiver.events("appointment.booked"),
      (list) => list.length >= 1,
    );
    expect(verify(booked as Received)).toMatchObject({
      type: "appointment.booked",
      data: { agentId, name: "Jane Doe" },
    });
  });

  it(
    "resends a delivery with the same webhook-id",
    async () => {
      const { deliveries } = await owner().call(api.listWebhookDeliveries, { query: { webhookId } });
      const first = deliveries.find((d) => d.eventType === "message.sent");
      if (!first) throw new Error("no message.sent delivery");
      const before = receiver.received.length;
      const resent = await owner().call(api.resendWebhookDelivery, { params: { deliveryId: first.id } });
      expect(resent.delivery.status).toBe("pending");
      const again = await waitUntil(
        () => receiver.received.slice(before),
        (list) => list.some((r) => r.headers["webhook-id"] === first.messageId),
      );
      expect(verify(again.find((r) => r.headers["webhook-id"] === first.messageId) as Received).type).toBe(
        "message.sent",
      );
      // Another organisation cannot resend it.
      await expectRefusal(
        testClient(app)(world.members.o2Owner.token).call(api.resendWebhookDelivery, {
          params: { deliveryId: first.id },
        }),
        404,
      );
      // Waits for the delivery job to run again: slow when the whole suite runs at once.
    },
    within(60_000),
  );

  it(
    "sends a resend made while an attempt is under way; that attempt does not overwrite it",
    async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding = false;
      receiver.answer(async (request) => {
        if (!holding && JSON.parse(request.body).type === "contact.created") {
          holding = true;
          await held;
        }
        return 200;
      });
      await owner().call(api.saveContact, {
        body: { data: { name: "Ada Lovelace", phoneNumber: "+15035550156" } },
      });
      await waitUntil(
        () => holding,
        (value) => value,
      );
      const { deliveries } = await owner().call(api.listWebhookDeliveries, { query: { webhookId } });
      const underWay = deliveries.find(
        (d) => d.eventType === "contact.created" && JSON.stringify(d.payload).includes("Ada Lovelace"),
      );
      if (!underWay) throw new Error("no delivery of Ada's contact.created");
      await owner().call(api.resendWebhookDelivery, { params: { deliveryId: underWay.id } });
      release();
      const sent = await waitUntil(
        () => receiver.received.filter((r) => r.headers["webhook-id"] === underWay.messageId),
        (list) => list.length >= 2,
      );
      expect(sent.map((r) => r.answered)).toEqual([200, 200]);
      const settled = await waitUntil(
        async () =>
          (await owner().call(api.listWebhookDeliveries, { query: { webhookId } })).deliveries.find(
            (d) => d.id === underWay.id,
          ),
        (d) => d?.status === "succeeded",
      );
      expect(settled?.attempts.map((a) => a.status)).toEqual([200, 200]);
      receiver.answer(() => 200);
    },
    within(60_000),
  );

  it("delivers after a server restart what was still being retried when the server stopped", async () => {
    receiver.answer(() => 500);
    const before = receiver.received.length;
    await owner().call(api.sandboxInboundSms, {
      body: { from: "+15035550178", to: AGENT_NUMBER, text: "Are you open on Saturday?" },
    });
    const failed = await waitUntil(
      () => receiver.received.slice(before).filter((r) => JSON.parse(r.body).type === "message.received"),
      (list) => list.length >= 1,
    );
    const messageId = failed[0]?.headers["webhook-id"];
    await app.close();
    receiver.answer(() => 200);
    app = await buildApp(testConfig(env), { database: await shared.open() });
    const delivered = await waitUntil(
      () => receiver.received.filter((r) => r.headers["webhook-id"] === messageId && r.answered === 200),
      (list) => list.length >= 1,
    );
    expect(verify(delivered[0] as Received)).toMatchObject({
      type: "message.received",
      data: { text: "Are you open on Saturday?" },
    });
    await app.context.jobs.idle([deliverWebhookJob]);
  });

  it("turns off an endpoint that keeps failing and tells the owner; it can be turned on again", async () => {
    const broken = await owner().call(api.createWebhook, {
      body: { url: receiver.url("/broken"), label: "Broken", type: "message.received" },
    });
    receiver.answer((request) => (request.path === "/broken" ? 500 : 200));
    for (const text of ["one", "two"]) {
      await owner().call(api.sandboxInboundSms, { body: { from: "+15035550179", to: AGENT_NUMBER, text } });
    }
    const off = await waitUntil(
      async () => (await owner().call(api.listWebhooks)).find((w) => w.id === broken.webhook.id),
      (webhook) => webhook?.disabledAt !== null,
    );
    expect(off?.disabledReason).toMatch(/2 deliveries in a row failed/);
    // 1 attempt + 3 retries for each of the two deliveries, then nothing more.
    await app.context.jobs.idle([deliverWebhookJob]);
    expect(receiver.received.filter((r) => r.path === "/broken")).toHaveLength(8);
    const notices = await app.context.database.db.select().from(outboxMessages);
    expect(
      notices.some((m) => m.toAddress === world.members.o1Owner.email && /webhook/i.test(m.subject ?? "")),
    ).toBe(true);
    // The endpoint that works still received them; once turned on again, the broken one receives again.
    const on = await owner().call(api.setWebhookEnabled, {
      params: { webhookId: broken.webhook.id },
      body: { enabled: true },
    });
    expect(on.webhook).toMatchObject({ disabledAt: null, failureStreak: 0 });
  });

  it("rotates the secret: the new one is shown once, and both sign for a while", async () => {
    receiver.answer(() => 200);
    const rotated = await owner().call(api.rotateWebhookSecret, { params: { webhookId } });
    expect(rotated.secret).not.toBe(secret);
    const answer = await owner().call(api.testWebhook, { body: { url: receiver.url() } });
    const test = receiver.received.find((r) => r.headers["webhook-id"] === answer.messageId) as Received;
    expect(test.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(new StandardWebhook(rotated.secret).verify(test.body, test.headers)).toBeTruthy();
    expect(verify(test)).toBeTruthy();
  });

  it("ends an attempt quietly when its endpoint is removed while it runs", async () => {
    const leaving = await owner().call(api.createWebhook, {
      body: { url: receiver.url("/leaving"), label: "Leaving", type: "contact.created" },
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = false;
    receiver.answer(async (request) => {
      if (request.path === "/leaving") {
        holding = true;
        await held;
      }
      return 200;
    });
    await owner().call(api.saveContact, { body: { data: { name: "Linus", phoneNumber: "+15035550157" } } });
    await waitUntil(
      () => holding,
      (value) => value,
    );
    const { deliveries } = await owner().call(api.listWebhookDeliveries, {
      query: { webhookId: leaving.webhook.id },
    });
    const underWay = deliveries[0];
    if (!underWay) throw new Error("no delivery to /leaving");
    await owner().call(api.deleteWebhook, { body: { url: receiver.url("/leaving") } });
    release();
    await app.context.jobs.idle([deliverWebhookJob]);
    // The attempt's job ended once, without an error and a retry.
    const rows = await executeRows<{ state: string; retry_count: number }>(
      app.context.database.db,
      sql.raw(`select state, retry_count from ${JOB_SCHEMA}.job
        where name = '${deliverWebhookJob.name}' and singleton_key = '${underWay.id}'`),
    );
    expect(rows).toEqual([{ state: "completed", retry_count: 0 }]);
    receiver.answer(() => 200);
  });

  it("removes an endpoint by url", async () => {
    await owner().call(api.deleteWebhook, { body: { url: receiver.url() } });
    expect((await owner().call(api.listWebhooks)).map((w) => w.url)).not.toContain(receiver.url());
    await expectRefusal(owner().call(api.testWebhook, { body: { url: receiver.url() } }), 404);
  });
});

describe("webhooks without OUTBOUND_ALLOWLIST", () => {
  it("refuses a loopback receiver", async () => {
    const app = await buildTestApp();
    try {
      const world = await buildHierarchy(app);
      await expectRefusal(
        testClient(app)(world.members.o1Owner.token).call(api.createWebhook, {
          body: { url: "http://127.0.0.1:9/hooks", type: "all" },
        }),
        400,
        "This address is on a private network and cannot be reached from Switchboard.",
      );
    } finally {
      await app.close();
    }
  });
});

describe("webhook settings", () => {
  it("reads the retry schedule in seconds, defaults to 5 s ... 10 h, and names a bad value", () => {
    expect(testConfig().webhooks.retryScheduleMs).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(testConfig({ WEBHOOK_RETRY_SCHEDULE: "1, 2.5" }).webhooks.retryScheduleMs).toEqual([1000, 2500]);
    expect(() => testConfig({ WEBHOOK_RETRY_SCHEDULE: "5,soon" })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it("signs id.timestamp.body with the secret's bytes, as Standard Webhooks says", () => {
    const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signPayload(secret, "msg_1", timestamp, '{"a":1}'),
    };
    expect(new StandardWebhook(secret).verify('{"a":1}', headers)).toEqual({ a: 1 });
  });
});
