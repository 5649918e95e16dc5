import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { twilioSignature } from "../../providers/sms/twilio.ts";
import { aiReplyJob } from "./jobs.ts";

const PUBLIC_URL = "https://switchboard.example.com";
const AUTH_TOKEN = "twilio-test-auth-token-0123456789";
const ACCOUNT_SID = "AC00000000000000000000000000000001";
const AGENT_NUMBER = "+15035550125";

/** A stand-in for api.twilio.com: records each Messages.json request and answers like Twilio. */
type Sent = { path: string; authorization: string | undefined; form: URLSearchParams };
let twilio: Server;
const sent: Sent[] = [];

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
let token: string;

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => resolve(body));
  });

function webhookParams(sid: string, body: string, from = "+15035550301") {
  return {
    MessageSid: sid,
    AccountSid: ACCOUNT_SID,
    From: from,
    To: AGENT_NUMBER,
    Body: body,
    NumMedia: "0",
  };
}

/** Twilio's form-encoded, signed webhook request: through app.inject, as the typed client sends JSON only. */
async function postWebhook(path: string, params: Record<string, string>, signature?: string) {
  return app.inject({
    method: "POST",
    url: path,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": signature ?? twilioSignature(AUTH_TOKEN, `${PUBLIC_URL}${path}`, params),
    },
    payload: new URLSearchParams(params).toString(),
  });
}

beforeAll(async () => {
  twilio = createServer(async (request, response) => {
    const form = new URLSearchParams(await readBody(request));
    sent.push({ path: request.url ?? "", authorization: request.headers.authorization, form });
    response.writeHead(201, { "content-type": "application/json" });
    response.end(JSON.stringify({ sid: `SM${String(sent.length).padStart(32, "0")}`, status: "queued" }));
  });
  await new Promise<void>((resolve) => twilio.listen(0, "127.0.0.1", resolve));
  app = await buildTestApp({
    PUBLIC_URL,
    SMS_PROVIDER: "twilio",
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_API_URL: `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`,
  });
  world = await buildHierarchy(app);
  client = testClient(app);
  token = world.members.o1Owner.token;
  await prepareSmsAgent(app, world, { number: AGENT_NUMBER });
});
afterAll(async () => {
  await app.close();
  await new Promise((resolve) => twilio.close(resolve));
});

const roomsOf = async () => (await client(token).call(api.listConversations)).rooms;

async function detailOf(roomId: string | undefined): Promise<api.ConversationDetail> {
  const answer = await client(token).call(api.getConversation, { params: { roomId: roomId ?? "" } });
  if (!("messages" in answer)) throw new Error(`${roomId} answered a list, not a conversation`);
  return answer;
}

describe("the Twilio inbound-message webhook", () => {
  it("takes a correctly signed message, answers empty TwiML, and the agent replies through Twilio's REST API", async () => {
    const res = await postWebhook(
      "/api/v1/carrier/twilio/sms",
      webhookParams("SM_valid_1", "When are you open?"),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/xml");
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    const rooms = await roomsOf();
    expect(rooms).toHaveLength(1);
    expect(rooms[0]?.username).toBe("+15035550301");
    const until = Date.now() + 5000;
    while (sent.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(sent).toHaveLength(1);
    const request = sent[0] as Sent;
    expect(request.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(request.authorization).toBe(
      `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`,
    );
    expect(Object.fromEntries(request.form)).toEqual({
      To: "+15035550301",
      From: AGENT_NUMBER,
      Body: "Opening hours: Mon-Fri 8am-5pm.",
      StatusCallback: `${PUBLIC_URL}/api/v1/carrier/twilio/status`,
    });
    const detail = await detailOf(rooms[0]?.roomId);
    expect(detail.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "When are you open?"],
      ["assistant", "Opening hours: Mon-Fri 8am-5pm."],
    ]);
    expect(detail.messages[0]?.deliveryStatus).toBe("received");
    expect(detail.messages[1]?.deliveryStatus).toBe("queued");

    // Twilio reports the delivery on the status callback.
    const status = await postWebhook("/api/v1/carrier/twilio/status", {
      MessageSid: "SM00000000000000000000000000000001",
      MessageStatus: "delivered",
    });
    expect(status.statusCode).toBe(200);
    const after = await detailOf(rooms[0]?.roomId);
    expect(after.messages.at(-1)?.deliveryStatus).toBe("delivered");
  });

  it("keeps only https media of an inbound message: script and data URLs are dropped", async () => {
    const from = "+15035550377";
    const res = await postWebhook("/api/v1/carrier/twilio/sms", {
      ...webhookParams("SM_media_1", "see pictures", from),
      NumMedia: "3",
      MediaUrl0: "javascript:alert(document.cookie)",
      MediaUrl1: "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      MediaUrl2: `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/MM1/Media/ME1`,
    });
    expect(res.statusCode).toBe(200);
    const room = (await roomsOf()).find((r) => r.username === from);
    const detail = await detailOf(room?.roomId);
    const inbound = detail.messages.find((m) => m.text === "see pictures");
    expect(inbound?.media).toEqual([
      `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/MM1/Media/ME1`,
    ]);
  });

  it("refuses a request whose signature does not match (forged, or signed for other content)", async () => {
    const params = webhookParams("SM_forged", "I am not Twilio");
    const forged = await postWebhook("/api/v1/carrier/twilio/sms", params, "bm90IGEgc2lnbmF0dXJl");
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual({ success: false, message: "Invalid Twilio signature" });
    const signedForOther = twilioSignature(AUTH_TOKEN, `${PUBLIC_URL}/api/v1/carrier/twilio/sms`, {
      ...params,
      Body: "something else",
    });
    expect((await postWebhook("/api/v1/carrier/twilio/sms", params, signedForOther)).statusCode).toBe(403);
    const wrongKey = twilioSignature("another-token", `${PUBLIC_URL}/api/v1/carrier/twilio/sms`, params);
    expect((await postWebhook("/api/v1/carrier/twilio/sms", params, wrongKey)).statusCode).toBe(403);
    const unsigned = await app.inject({
      method: "POST",
      url: "/api/v1/carrier/twilio/sms",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(params).toString(),
    });
    expect(unsigned.statusCode).toBe(403);
    const texts = (await roomsOf()).map((r) => r.lastMessage?.text);
    expect(texts.join(" ")).not.toContain("I am not Twilio");
  });

  it("acknowledges a replayed delivery without storing the message twice", async () => {
    const params = webhookParams("SM_replayed", "Only once please", "+15035550302");
    const first = await postWebhook("/api/v1/carrier/twilio/sms", params);
    const replay = await postWebhook("/api/v1/carrier/twilio/sms", params);
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    const room = (await roomsOf()).find((r) => r.username === "+15035550302");
    // Whatever the two deliveries set off (the AI agent's answer) is done.
    await app.context.jobs.idle([aiReplyJob]);
    const detail = await detailOf(room?.roomId);
    expect(detail.messages.filter((m) => m.role === "user").map((m) => m.text)).toEqual(["Only once please"]);
  });

  it("keeps an inbound text with NUL, controls and noncharacters, cleaned, and the server goes on", async () => {
    const params = webhookParams("SM_dirty", "Hi\u0000 there\u0007, open\uFFFF today?", "+15035550303");
    const res = await postWebhook("/api/v1/carrier/twilio/sms", params);
    expect(res.statusCode).toBe(200);
    const room = (await roomsOf()).find((r) => r.username === "+15035550303");
    await app.context.jobs.idle([aiReplyJob]);
    const detail = await detailOf(room?.roomId);
    expect(detail.messages.find((m) => m.role === "user")?.text).toBe("Hi there, open today?");
  });

  it("sends a person's reply through Twilio from the agent's number", async () => {
    const room = (await roomsOf()).find((r) => r.username === "+15035550302");
    const before = sent.length;
    const reply = await client(token).call(api.sendConversationMessage, {
      params: { roomId: room?.roomId ?? "" },
      body: { text: "A person here." },
    });
    expect(reply.message.deliveryStatus).toBe("queued");
    expect(sent).toHaveLength(before + 1);
    expect(sent.at(-1)?.form.get("Body")).toBe("A person here.");
    expect(sent.at(-1)?.form.get("From")).toBe(AGENT_NUMBER);
  });
});
