import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClient, testClient } from "../../../test/api-client.ts";
import { buildTestApp } from "../../../test/helpers.ts";

/**
 * Issue 32 item 10: a new organisation's calls showed in UTC. Sign-up keeps the browser's zone as the
 * organisation's (settings.timeZone), which every date and time of the web app is read in.
 */
let app: FastifyInstance;
let client: TestClient;
let ip = 1;

beforeAll(async () => {
  app = await buildTestApp();
  client = testClient(app);
});
afterAll(async () => {
  await app.close();
});

async function post(url: string, payload: object) {
  const res = await app.inject({ method: "POST", url, payload, remoteAddress: `10.8.0.${ip++}` });
  return { status: res.statusCode, body: res.json() };
}

async function signUp(email: string, extra: object) {
  const started = await post("/api/v1/signup/email", { email, businessName: "Prairie Dental", ...extra });
  if (started.status !== 200) return started;
  const outbox = await app.inject({ method: "GET", url: "/api/dev/outbox?limit=100" });
  const message = outbox.json().messages.find((m: { to: string }) => m.to === email) as { body: string };
  const code = /\b(\d{6})\b/.exec(message.body)?.[1] ?? "";
  return post("/api/v1/email/verify", { email, verificationCode: code });
}

describe("a new organisation's time zone", () => {
  it("is the zone of the browser that signed it up", async () => {
    const session = await signUp("owner@prairie.example", { timeZone: "America/Chicago" });
    expect(session.status).toBe(200);
    const view = await client(session.body.token).call(api.getAccount, { query: {} });
    expect(view.account.accountType).toBe("organization");
    expect(view.account.settings.timeZone).toBe("America/Chicago");
  });

  it("refuses a zone that is no time zone, with a clear message", async () => {
    const refused = await post("/api/v1/signup/email", {
      email: "mars@prairie.example",
      timeZone: "Mars/Base",
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("Choose a time zone such as America/Chicago.");
  });

  it("can be changed in the account's settings, to a real zone only", async () => {
    const session = await signUp("second@prairie.example", { timeZone: "America/Chicago" });
    const owner = client(session.body.token);
    const saved = await owner.call(api.saveAccountSetting, {
      body: { settings: { timeZone: "Europe/Berlin" } },
    });
    expect(saved.settings.timeZone).toBe("Europe/Berlin");
    await expect(
      owner.call(api.saveAccountSetting, { body: { settings: { timeZone: "Europe/Atlantis" } } }),
    ).rejects.toThrow(/Choose a time zone/);
  });
});
