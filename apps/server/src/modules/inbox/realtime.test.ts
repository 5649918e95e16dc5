import type { RealtimeEvent } from "@switchboard/api";
import * as api from "@switchboard/api";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { withDatabase } from "../../../test/template-database.ts";
import { openPostgres } from "../../db/client.ts";
import { createNotificationListener, type NotificationListener } from "../../db/notifications.ts";
import { SANDBOX_MESSAGES } from "../../providers/llm/sandbox-responder.ts";
import { createRealtimeHub, type RealtimeEnvelope } from "../../realtime/realtime-hub.ts";
import { aiReplyJob } from "./jobs.ts";

const AGENT_NUMBER = "+15035550124";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
let token: string;

type Socket = Awaited<ReturnType<FastifyInstance["injectWS"]>>;

/** A WebSocket client that keeps every event it receives. */
async function connect(query: string) {
  const events: RealtimeEvent[] = [];
  // Listening from the start: the server's first frames may arrive with the handshake.
  const socket: Socket = await app.injectWS(
    `/api/v1/realtime?${query}`,
    {},
    {
      onInit: (ws) =>
        ws.on("message", (data: Buffer) => events.push(JSON.parse(String(data)) as RealtimeEvent)),
    },
  );
  return { socket, events };
}

async function until(check: () => boolean, ms = within(3000)) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
  return check();
}

const messages = (events: RealtimeEvent[]) =>
  events.flatMap((e) => (e.type === "message" ? [e.message] : []));

async function text(from: string, body: string) {
  await client(token).call(api.sandboxInboundSms, { body: { from, to: AGENT_NUMBER, text: body } });
}

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  client = testClient(app);
  token = world.members.o1Owner.token;
  await prepareSmsAgent(app, world, { number: AGENT_NUMBER });
});
afterAll(async () => {
  await app.close();
});

describe("the realtime WebSocket", () => {
  it("refuses a connection without a valid token, and a plain GET is told to upgrade", async () => {
    await expect(app.injectWS("/api/v1/realtime")).rejects.toThrow(/401/);
    await expect(
      app.injectWS(
        `/api/v1/realtime?token=${world.members.uOwner.token}&targetAccountId=${world.accounts.O1.id}`,
      ),
    ).rejects.toThrow(/404/);
    await expectRefusal(client(token).call(api.realtime), 426, "Connect to this address with a WebSocket.");
  });

  it("brings a new message to every open browser of the organisation within a second, and to no other", async () => {
    const owner = await connect(`token=${token}`);
    const admin = await connect(`token=${world.members.o1Admin.token}`);
    const stranger = await connect(`token=${world.members.o2Owner.token}`);
    try {
      expect(await until(() => owner.events.some((e) => e.type === "ready"))).toBe(true);
      expect(owner.events[0]).toMatchObject({ type: "hello", orgId: world.accounts.O1.id });
      const sentAt = Date.now();
      await text("+15035550201", "Are you open on Saturday?");
      expect(
        await until(
          () => messages(owner.events).length >= 1 && messages(admin.events).length >= 1,
          within(1000),
        ),
      ).toBe(true);
      expect(Date.now() - sentAt).toBeLessThan(within(1000));
      expect(messages(owner.events)[0]).toMatchObject({ role: "user", text: "Are you open on Saturday?" });
      // The AI agent's answer follows on the same socket.
      expect(await until(() => messages(owner.events).some((m) => m.role === "assistant"))).toBe(true);
      // An event of the stranger's own organisation, published after those messages, reaches it after
      // anything of theirs it would have been sent.
      await client(world.members.o2Owner.token).call(api.clearActivity, { body: { clearAll: true } });
      expect(await until(() => stranger.events.some((e) => e.type === "read"))).toBe(true);
      expect(messages(stranger.events)).toEqual([]);
    } finally {
      owner.socket.terminate();
      admin.socket.terminate();
      stranger.socket.terminate();
    }
  });

  it("catches up after a dropped connection without losing or repeating a message", async () => {
    const first = await connect(`token=${token}`);
    await until(() => first.events.some((e) => e.type === "ready"));
    await text("+15035550202", "First message");
    await until(() => messages(first.events).filter((m) => m.roomId).length >= 2);
    const seen = messages(first.events);
    const lastSeen = Math.max(...seen.map((m) => m.id));
    first.socket.terminate();

    // While the browser is away: a message and the agent's answer.
    await text("+15035550202", "Second message");
    await app.context.jobs.idle([aiReplyJob]);

    const again = await connect(`token=${token}&since=${lastSeen}`);
    try {
      expect(await until(() => again.events.some((e) => e.type === "ready"))).toBe(true);
      const caught = messages(again.events);
      expect(caught.map((m) => [m.role, m.text])).toEqual([
        ["user", "Second message"],
        ["assistant", SANDBOX_MESSAGES.fallback],
      ]);
      expect(new Set(caught.map((m) => m.id)).size).toBe(caught.length);
      expect(caught.every((m) => m.id > lastSeen)).toBe(true);
      // Live again after catching up.
      await text("+15035550202", "Third message");
      expect(
        await until(() => messages(again.events).some((m) => m.text === "Third message"), within(1000)),
      ).toBe(true);
    } finally {
      again.socket.terminate();
    }
  });

  it("tells open browsers about room changes and read state", async () => {
    const owner = await connect(`token=${token}`);
    try {
      await until(() => owner.events.some((e) => e.type === "ready"));
      const list = await client(token).call(api.listConversations);
      const roomId = list.rooms[0]?.roomId ?? "";
      await client(token).call(api.setAiAgentEnabled, {
        params: { roomId },
        body: { aiAgentEnabled: false },
      });
      await client(token).call(api.clearActivity, { body: { roomId } });
      expect(
        await until(
          () =>
            owner.events.some((e) => e.type === "room" && e.roomId === roomId) &&
            owner.events.some((e) => e.type === "read" && e.roomId === roomId),
        ),
      ).toBe(true);
    } finally {
      owner.socket.terminate();
    }
  });
});

describe("fan-out across server instances", () => {
  it("delivers an event published on one instance to the subscribers of another (LISTEN/NOTIFY)", async () => {
    const handle = app.context.database;
    const serverUrl = process.env.DATABASE_URL;
    // On PostgreSQL a second instance has connections of its own; PGlite is one process's database.
    let other = handle;
    if (serverUrl) {
      const [row] = (
        (await handle.db.execute(sql`select current_database() as name`)) as unknown as {
          rows: { name: string }[];
        }
      ).rows;
      other = await openPostgres(withDatabase(serverUrl, row?.name ?? ""));
    }
    const log = app.log;
    const listeners = [handle, other].map((database) => createNotificationListener({ database, log }));
    for (const listener of listeners) await listener.start();
    const [mine, theirs] = listeners as [NotificationListener, NotificationListener];
    const publisher = createRealtimeHub({ notifications: mine, log, loadMessageEvent: async () => null });
    const receiver = createRealtimeHub({ notifications: theirs, log, loadMessageEvent: async () => null });
    await publisher.start();
    await receiver.start();
    const received: RealtimeEnvelope[] = [];
    receiver.subscribe(4242, (envelope) => received.push(envelope));
    try {
      await publisher.publish({ orgId: 4242, agentId: null, event: { type: "room", roomId: "r-1" } });
      await publisher.publish({ orgId: 4343, agentId: null, event: { type: "room", roomId: "r-2" } });
      // Notices arrive in the order they were sent: once r-3 is in, r-2 would have been too.
      await publisher.publish({ orgId: 4242, agentId: null, event: { type: "room", roomId: "r-3" } });
      expect(await until(() => received.length >= 2)).toBe(true);
      expect(received).toEqual([
        { orgId: 4242, agentId: null, event: { type: "room", roomId: "r-1" } },
        { orgId: 4242, agentId: null, event: { type: "room", roomId: "r-3" } },
      ]);
    } finally {
      publisher.stop();
      receiver.stop();
      for (const listener of listeners) await listener.stop();
      if (other !== handle) await other.close();
    }
  });
});
