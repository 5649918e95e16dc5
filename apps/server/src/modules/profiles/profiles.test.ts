import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { aiReplyJob } from "../inbox/jobs.ts";

const AGENT_NUMBER = "+15035550123";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
let token: string;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  client = testClient(app);
  token = world.members.o1Owner.token;
  await prepareSmsAgent(app, world, {
    number: AGENT_NUMBER,
    instructions: "You are the receptionist of Bluebird Dental.\nOpening hours: Mon-Fri 8am-5pm.",
    greeting: "Hi from Bluebird!",
    agent: { details: { agentName: "Front Desk" } },
  });
  // Building the app and its hierarchy takes long on a busy machine.
}, within(180_000));
afterAll(async () => {
  await app.close();
});

const orgUsername = () => world.accounts.O1.username;

describe("the link page", () => {
  it("keeps links in order, counts clicks and keeps a kept link's count", async () => {
    const saved = await client(token).call(api.saveProfileLinks, {
      body: {
        links: [
          { title: "Book online", url: "example.com/book" },
          { title: "Our prices", url: "https://example.com/prices" },
        ],
        linksConfig: { bio: "Family dentistry in Portland." },
      },
    });
    expect(saved.links.map((l) => [l.position, l.title, l.url, l.clicks])).toEqual([
      [0, "Book online", "https://example.com/book", 0],
      [1, "Our prices", "https://example.com/prices", 0],
    ]);
    const [book, prices] = saved.links as [api.ProfileLink, api.ProfileLink];
    const visit = await app.inject({ method: "GET", url: `/api/v1/links/${book.id}/visit` });
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe("https://example.com/book");
    await app.inject({ method: "GET", url: `/api/v1/links/${book.id}/visit` });

    // Reordered, one renamed, one new: the kept link keeps its clicks.
    const again = await client(token).call(api.saveProfileLinks, {
      body: {
        links: [
          { id: prices.id, title: "Prices", url: prices.url },
          { id: book.id, title: "Book", url: book.url },
          { title: "Map", url: "https://maps.example.com/bluebird" },
        ],
      },
    });
    expect(again.links.map((l) => [l.title, l.clicks])).toEqual([
      ["Prices", 0],
      ["Book", 2],
      ["Map", 0],
    ]);
    expect(again.linksConfig).toEqual({ bio: "Family dentistry in Portland.", published: true });

    const stats = await client(token).call(api.linkStats, { body: { days: 7 } });
    expect(stats.series).toHaveLength(7);
    expect(stats.series.at(-1)?.clicks).toBe(2);
    expect(stats.totalClicks).toBe(2);
    expect(stats.links.find((l) => l.id === book.id)?.periodClicks).toBe(2);
  });

  it("refuses unsafe addresses and another tenant's link ids", async () => {
    await expectRefusal(
      client(token).call(api.saveProfileLinks, {
        body: { links: [{ title: "x", url: "javascript:alert(1)" }] },
      }),
      400,
      "links.0.url: Links are web addresses (https://...), mailto: or tel: links.",
    );
    const other = await client(world.members.o2Owner.token).call(api.saveProfileLinks, {
      body: { links: [{ title: "Theirs", url: "https://other.example" }] },
    });
    const theirId = other.links[0]?.id as number;
    // Naming another account's link id makes a new link of one's own; theirs is untouched.
    const mine = await client(token).call(api.saveProfileLinks, {
      body: { links: [{ id: theirId, title: "Mine", url: "https://mine.example" }] },
    });
    expect(mine.links[0]?.id).not.toBe(theirId);
    const theirs = await client(world.members.o2Owner.token).call(api.getProfileLinks);
    expect(theirs.links.map((l) => [l.id, l.title])).toEqual([[theirId, "Theirs"]]);
  });
});

describe("the public page", () => {
  it("is server-rendered with its title, description, Open Graph image, links and agent", async () => {
    await client(token).call(api.saveProfileLinks, {
      body: {
        links: [{ title: "Book <now>", url: "https://example.com/book" }],
        linksConfig: { published: true },
      },
    });
    for (const path of [`/${orgUsername()}`, `/u/${orgUsername()}`]) {
      const res = await app.inject({ method: "GET", url: path });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      const html = res.body;
      expect(html).toContain('<meta property="og:image"');
      expect(html).toContain('<meta name="description" content="Family dentistry in Portland.">');
      expect(html).toContain("Book &lt;now&gt;");
      expect(html).toContain(`href="tel:${AGENT_NUMBER}"`);
      expect(html).toContain("Chat with Front Desk");
      expect(html).not.toContain(world.accounts.O1.email ?? "?");
    }
    const page = await client().call(api.getPublicPage, { params: { username: orgUsername() } });
    expect(page.agent).toMatchObject({
      displayName: "Front Desk",
      phoneNumber: AGENT_NUMBER,
      acceptsMessages: true,
    });
  });

  it("greets visitors with the agent's variables filled in, never a raw {variable}", async () => {
    const owner = client(token);
    const agentId = world.accounts.A1.id;
    const greetWith = async (variables: Record<string, string>) => {
      await owner.call(api.saveCampaign, {
        body: {
          agentId,
          agentInstructions: "You are the receptionist of {clinicName}.",
          greeting: "Thank you for calling {clinicName}, how can I help you today?",
          variables,
        },
      });
      await owner.call(api.publishAgent, { body: { agentId } });
    };
    const greetings = async () => {
      const page = await client().call(api.getPublicPage, { params: { username: orgUsername() } });
      const widget = await app.inject({ method: "GET", url: `/${orgUsername()}?embed=chat` });
      const profile = await client().call(api.getPublicMessages, {
        params: { username: world.accounts.A1.username },
        query: { preview: true },
      });
      const shown = /<p class="msg agent">([^<]*)<\/p>/.exec(widget.body)?.[1];
      return { page: page.agent?.greeting, widget: shown, profile: profile.profile.greeting };
    };
    try {
      await greetWith({ clinicName: "Bluebird Dental" });
      const filled = "Thank you for calling Bluebird Dental, how can I help you today?";
      expect(await greetings()).toEqual({ page: filled, widget: filled, profile: filled });
      // A variable without a value is left out with its clause; the sentence still reads.
      await greetWith({});
      const without = "How can I help you today?";
      expect(await greetings()).toEqual({ page: without, widget: without, profile: without });
    } finally {
      await owner.call(api.saveCampaign, {
        body: {
          agentId,
          agentInstructions: "You are the receptionist of Bluebird Dental.\nOpening hours: Mon-Fri 8am-5pm.",
          greeting: "Hi from Bluebird!",
          variables: {},
        },
      });
      await owner.call(api.publishAgent, { body: { agentId } });
    }
  });

  it("leaves the app's own paths alone and answers 404 for private pages", async () => {
    const app1 = await app.inject({ method: "GET", url: "/app" });
    expect(app1.body).not.toContain("og:image");
    const api1 = await app.inject({ method: "GET", url: "/api" });
    expect(api1.statusCode).toBe(404);
    expect(api1.json()).toMatchObject({ success: false });
    const unknown = await app.inject({ method: "GET", url: "/u/nobody-here" });
    expect(unknown.statusCode).toBe(404);
    await client(token).call(api.saveProfileLinks, {
      body: { links: [], linksConfig: { published: false } },
    });
    expect((await app.inject({ method: "GET", url: `/u/${orgUsername()}` })).statusCode).toBe(404);
    await expectRefusal(client().call(api.getPublicProfile, { params: { username: orgUsername() } }), 404);
    await client(token).call(api.saveProfileLinks, { body: { links: [], linksConfig: { published: true } } });
    expect((await app.inject({ method: "GET", url: `/u/${orgUsername()}` })).statusCode).toBe(200);
  });

  it("lets other sites frame the chat only when embeds are allowed", async () => {
    const framed = await app.inject({ method: "GET", url: `/${orgUsername()}?embed=chat` });
    expect(framed.headers["content-security-policy"]).toBe("frame-ancestors *");
    const plain = await app.inject({ method: "GET", url: `/${orgUsername()}` });
    expect(plain.headers["content-security-policy"]).toBe("frame-ancestors 'self'");
  });
});

describe("the public chat", () => {
  it("lands in the organisation's inbox as a web-chat room, and the agent answers the visitor", async () => {
    const session = await client().call(api.allocateTempUserSession);
    const sent = await client().call(api.sendPublicMessage, {
      params: { username: orgUsername() },
      query: { token: session.token },
      body: { text: "What are your opening hours?" },
    });
    await app.context.jobs.idle([aiReplyJob]);
    const agentUsername = world.accounts.A1.username;
    const mine = await client().call(api.getPublicMessages, {
      params: { username: agentUsername },
      query: { token: session.token },
    });
    expect(mine.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "What are your opening hours?"],
      ["assistant", "Opening hours: Mon-Fri 8am-5pm."],
    ]);
    const inbox = await client(token).call(api.listConversations);
    const row = inbox.rooms.find((r) => r.roomId === sent.roomId);
    expect(row?.room.channel).toBe("web");
    // Another visitor sees nothing of it.
    const other = await client().call(api.allocateTempUserSession);
    const theirs = await client().call(api.getPublicMessages, {
      params: { username: agentUsername },
      query: { token: other.token },
    });
    expect(theirs.messages).toEqual([]);
  });

  it("needs a session and limits each visitor", async () => {
    await expectRefusal(
      client().call(api.sendPublicMessage, { params: { username: orgUsername() }, body: { text: "hi" } }),
      401,
      api.PUBLIC_MESSAGES.chatNoSession,
    );
    const session = await client().call(api.allocateTempUserSession);
    for (let i = 0; i < api.PUBLIC_CHAT_PER_MINUTE; i++)
      await client().call(api.sendPublicMessage, {
        params: { username: orgUsername() },
        query: { token: session.token },
        body: { text: `message ${i}` },
      });
    await expectRefusal(
      client().call(api.sendPublicMessage, {
        params: { username: orgUsername() },
        query: { token: session.token },
        body: { text: "one more" },
      }),
      429,
      api.PUBLIC_MESSAGES.chatLimited,
    );
    await app.context.jobs.idle([aiReplyJob]);
  });
});

describe("notifications and search", () => {
  it("notifies the organisation of a new message, folded per conversation, and clears", async () => {
    await client(token).call(api.clearNotifications, { body: { clearAll: true } });
    const from = "+15035550177";
    await client(token).call(api.sandboxInboundSms, {
      body: { from, to: AGENT_NUMBER, text: "Hello there" },
    });
    await client(token).call(api.sandboxInboundSms, { body: { from, to: AGENT_NUMBER, text: "Anyone?" } });
    await app.context.jobs.idle([aiReplyJob]);
    const listed = await client(token).call(api.listNotifications);
    expect(listed.unread).toBe(1);
    expect(listed.notifications[0]).toMatchObject({
      kind: "message",
      title: "New message from +1 (503) 555-0177",
      body: "Anyone?",
      count: 2,
    });
    // Another organisation sees none of it, and cannot clear it.
    const theirs = await client(world.members.o2Owner.token).call(api.listNotifications);
    expect(theirs.notifications.map((n) => n.id)).not.toContain(listed.notifications[0]?.id);
    await expectRefusal(
      client(world.members.o2Owner.token).call(api.clearNotifications, {
        body: { clear: listed.notifications[0]?.id as number },
      }),
      404,
    );
    const cleared = await client(token).call(api.clearNotifications, {
      body: { clear: listed.notifications[0]?.id as number },
    });
    expect(cleared).toEqual({ success: true, cleared: 1, unread: 0 });
    // Cleared again (a second tab, a double click): done, not an error.
    const again = await client(token).call(api.clearNotifications, {
      body: { clear: listed.notifications[0]?.id as number },
    });
    expect(again).toEqual({ success: true, cleared: 0, unread: 0 });
    await expectRefusal(client(token).call(api.clearNotifications, { body: { clear: 987_654_321 } }), 404);
  });

  it("delivers the get-support form to the super admins (bell and e-mail), at most 5 an hour", async () => {
    const superAdmin = client(world.members.superAdmin.token);
    await superAdmin.call(api.clearNotifications, { body: { clearAll: true } });
    await expectRefusal(
      client(token).call(api.sendSupportRequest, { body: { topic: "problem", message: "help" } }),
      400,
      /at least 10 characters/,
    );
    const sent = await client(token).call(api.sendSupportRequest, {
      body: { topic: "problem", message: "Our agent does not pick up calls.", page: "/app/numbers" },
    });
    expect(sent).toEqual({ success: true, message: api.PUBLIC_MESSAGES.supportSent });

    const inbox = await superAdmin.call(api.listNotifications);
    const request = inbox.notifications.find((n) => n.kind === "support");
    expect(request?.title).toBe("Problem from o1owner");
    expect(request?.body).toContain("Our agent does not pick up calls.");
    expect(request?.body).toContain(`Account: ${orgUsername()} (#${world.accounts.O1.id}, organization)`);
    expect(request?.body).toContain("Page: /app/numbers");
    // The organisation's own bell does not show it.
    const own = await client(token).call(api.listNotifications);
    expect(own.notifications.some((n) => n.kind === "support")).toBe(false);

    const outbox = (await app.inject({ method: "GET", url: "/api/dev/outbox?limit=20" })).json() as {
      messages: { to: string; subject: string; body: string }[];
    };
    const mail = outbox.messages.find((m) => m.to === world.members.superAdmin.email);
    expect(mail?.subject).toBe("Support request — Problem from o1owner");
    expect(mail?.body).toContain(`Answer by e-mail to ${world.members.o1Owner.email}.`);

    for (let i = 1; i < api.SUPPORT_PER_HOUR; i++)
      await client(token).call(api.sendSupportRequest, {
        body: { topic: "question", message: `Question ${i} here.` },
      });
    await expectRefusal(
      client(token).call(api.sendSupportRequest, {
        body: { topic: "question", message: "One more question." },
      }),
      429,
      api.PUBLIC_MESSAGES.supportLimited,
    );
  });

  it("finds contacts, conversations and agents; words of messages with enhancedSearch", async () => {
    await client(token).call(api.saveContact, {
      body: { newData: { firstName: "Zelda", lastName: "Quist", phoneNumber: "+15035550166" } },
    });
    const byName = await client(token).call(api.search, { params: { target: "zeld" } });
    expect(byName.results.map((r) => [r.type, r.title])).toContainEqual(["contact", "Zelda Quist"]);
    // Numbers read as numbers, not as stored.
    expect(byName.results.find((r) => r.type === "contact")?.subtitle).toBe("+1 (503) 555-0166");
    const byNumber = await client(token).call(api.search, { params: { target: "5550177" } });
    expect(byNumber.results.map((r) => r.type)).toContain("conversation");
    const agents = await client(token).call(api.search, { params: { target: "front" } });
    expect(agents.results).toContainEqual(expect.objectContaining({ type: "agent", title: "Front Desk" }));
    expect((await client(token).call(api.search, { params: { target: "anyone" } })).results).toEqual([]);
    const words = await client(token).call(api.enhancedSearch, { params: { target: "anyone" } });
    expect(words.results.map((r) => r.type)).toEqual(["conversation"]);
    // Another organisation finds nothing of this one.
    const other = await client(world.members.o2Owner.token).call(api.search, { params: { target: "zelda" } });
    expect(other.results).toEqual([]);
  });

  it("finds the person of an outbound task by part of the name or the number (issue 32 item 15)", async () => {
    const { task } = await client(token).call(api.createTask, {
      body: {
        agentId: world.accounts.A1.id,
        channel: "text",
        phoneNumber: "+15035550188",
        name: "Alice Marlowe",
        message: "Your cleaning is due.",
        scheduledAt: Date.now() + 86_400_000,
      },
    });
    const found = await client(token).call(api.search, { params: { target: "alice" } });
    expect(found.results).toContainEqual({
      type: "task",
      id: task.id,
      title: "Alice Marlowe",
      subtitle: "+1 (503) 555-0188 · Single task · scheduled",
      link: `tasks?editTask=${task.id}`,
    });
    const byNumber = await client(token).call(api.search, { params: { target: "5550188" } });
    expect(byNumber.results.map((r) => [r.type, r.id])).toContainEqual(["task", task.id]);
    // Another organisation does not find it.
    const other = await client(world.members.o2Owner.token).call(api.search, { params: { target: "alice" } });
    expect(other.results.filter((r) => r.type === "task")).toEqual([]);
  });
});

describe("invitations, referral visits and check-ins", () => {
  it("invites by e-mail with the referral link, records visits, keeps the app's check-in", async () => {
    const invite = await client(token).call(api.sendInvite, { body: { target: "friend@example.com" } });
    expect(invite).toMatchObject({
      kind: "email",
      link: expect.stringContaining(`/signup?ref=${orgUsername()}`),
    });
    const outbox = await app.inject({ method: "GET", url: "/api/dev/outbox?limit=20" });
    expect(outbox.body).toContain("friend@example.com");
    await expectRefusal(client(token).call(api.sendInvite, { body: { target: "not an address" } }), 400);
    expect(await client().call(api.ipCorrelator, { body: { page: "/signup", ref: orgUsername() } })).toEqual({
      success: true,
    });
    expect((await client(token).call(api.getCheckIn, { params: { kind: "app" } })).checkIn).toBeNull();
    await client(token).call(api.mobileCheckIn, {
      body: { platform: "iOS", appVersion: "2.1.0", pushToken: "push-123" },
    });
    const latest = await client(token).call(api.getCheckIn, { params: { kind: "app" } });
    expect(latest.checkIn?.data).toEqual({ platform: "iOS", appVersion: "2.1.0", pushToken: "push-123" });
  });
});
