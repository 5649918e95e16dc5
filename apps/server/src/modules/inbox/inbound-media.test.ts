import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";

const AGENT_NUMBER = "+15035550188";
const UNSAFE = [
  "javascript:alert(document.cookie)",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "http://tracker.example/pixel.png",
];

let app: FastifyInstance;
let client: TestClient;
let token: string;

beforeAll(async () => {
  app = await buildTestApp();
  client = testClient(app);
  const world = await buildHierarchy(app);
  token = world.members.o1Owner.token;
  await prepareSmsAgent(app, world, { number: AGENT_NUMBER });
});
afterAll(async () => {
  await app.close();
});

const inbound = (from: string, media: string[]) =>
  client(token).call(api.sandboxInboundSms, { body: { from, to: AGENT_NUMBER, text: "hi", media } });

describe("media URLs of messages", () => {
  it("an inbound message with a script, data or plain-http picture URL is refused and nothing is stored", async () => {
    for (const [i, url] of UNSAFE.entries()) {
      const res = await expectRefusal(inbound(`+1503555040${i}`, [url]), 400);
      expect(res.body).toEqual({ success: false, message: "Attach pictures by https:// link." });
    }
    const { rooms } = await client(token).call(api.listConversations);
    expect(JSON.stringify(rooms)).not.toContain("javascript:");
    expect(rooms.filter((r) => r.username.startsWith("+1503555040"))).toEqual([]);
  });

  it("https pictures and the server's own files are taken; a reply cannot carry a script URL", async () => {
    const own = "http://127.0.0.1:3000/files/media/picture.png";
    const ok = await inbound("+15035550411", ["https://cdn.example.com/a.png", own]);
    const detail = await client(token).call(api.getConversation, { params: { roomId: ok.roomId } });
    expect("messages" in detail && detail.messages[0]?.media).toEqual(["https://cdn.example.com/a.png", own]);
    await expectRefusal(
      client(token).call(api.sendConversationMessage, {
        params: { roomId: ok.roomId },
        body: { text: "look", media: ["javascript:alert(1)"] },
      }),
      400,
      "Attach pictures by https:// link.",
    );
  });
});
