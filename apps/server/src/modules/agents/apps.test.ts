import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../../../test/api-call.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";

let app: FastifyInstance;
let call: ReturnType<typeof apiCaller>;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  app = await buildTestApp();
  call = apiCaller(app);
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app.close();
});

describe("apps", () => {
  it("lists the built-in catalogue with auth parameters and function schemas", async () => {
    const res = await call("GET", "/api/v2/apps", { token: world.members.o1Owner.token });
    expect(res.status).toBe(200);
    const ids = res.body.apps.map((a: { appId: string }) => a.appId);
    expect(ids).toEqual(["schedule", "call-transfer", "end-call", "send-sms", "collect-data", "webhook"]);
    const webhook = res.body.apps.find((a: { appId: string }) => a.appId === "webhook");
    expect(webhook.dependencies.providers.auth.parameters.properties.url).toMatchObject({ default: "" });
    expect(webhook).toMatchObject({ installed: false, data: null });
    const unknown = await call("GET", "/api/v2/apps/nope/1.0.0", { token: world.members.o1Owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: "App not found" });
  });

  it("installs once (idempotent), updates data, reloads, uninstalls; per organisation", async () => {
    const o1 = { token: world.members.o1Owner.token };
    const path = "/api/v2/apps/webhook/1.0.0";
    const bad = await call("POST", path, { ...o1, body: { data: { url: "not a url" } } });
    expect(bad.status).toBe(400);
    const first = await call("POST", path, { ...o1, body: { data: { url: "https://hooks.example/a" } } });
    expect(first.body.app).toMatchObject({
      installed: true,
      data: { url: "https://hooks.example/a", secret: "" },
    });
    const again = await call("POST", path, { ...o1, body: { data: { url: "https://hooks.example/b" } } });
    expect(again.body.app.data.url).toBe("https://hooks.example/a");
    const listed = await call("GET", "/api/v2/apps", o1);
    expect(listed.body.apps.filter((a: { installed: boolean }) => a.installed)).toHaveLength(1);

    const merged = await call("PUT", path, { ...o1, body: { data: { secret: "s3" } } });
    expect(merged.body.app.data).toEqual({ url: "https://hooks.example/a", secret: "s3" });
    const reloaded = await call("PUT", path, {
      ...o1,
      body: { reload: true, data: { url: "https://x.example" } },
    });
    expect(reloaded.body.app.data).toEqual({ url: "https://x.example", secret: "" });

    // The agent account below uses its organisation's installation; another tenant sees nothing of it.
    const viaAgent = await call("GET", path, { ...o1, targetAccountId: world.accounts.A1.id });
    expect(viaAgent.body.app.installed).toBe(true);
    const foreign = await call("GET", path, { token: world.members.o2Owner.token });
    expect(foreign.body.app.installed).toBe(false);
    expect(JSON.stringify(foreign.body)).not.toContain("x.example");

    const removed = await call("DELETE", path, o1);
    expect(removed.body).toEqual({ success: true, message: "App removed." });
    expect((await call("DELETE", path, o1)).status).toBe(404);
    expect((await call("PUT", path, { ...o1, body: {} })).status).toBe(404);
  });

  it("offers the installed apps' functions and says which the agent enables", async () => {
    const o1 = { token: world.members.o1Owner.token };
    const none = await call("GET", "/api/v2/agent/functions", o1);
    expect(none.body.functions.some((f: { appId: string }) => f.appId === "end-call")).toBe(false);
    await call("POST", "/api/v2/apps/end-call/1.0.0", { ...o1, body: {} });
    await call("POST", "/api/v2/apps/schedule/1.0.0", { ...o1, body: {} });
    await call("POST", "/api/v2/campaign", {
      ...o1,
      body: {
        agentId: world.accounts.A1.id,
        agentInstructions: "Hi",
        apps: [{ appId: "end-call", version: "1.0.0" }],
        enabledFunctions: { "end-call@1.0.0": ["endCall"] },
      },
    });
    const res = await call("GET", "/api/v2/agent/functions", {
      ...o1,
      query: { agentId: world.accounts.A1.id },
    });
    expect(res.status).toBe(200);
    const endCall = res.body.functions.find((f: { name: string }) => f.name === "endCall");
    expect(endCall).toMatchObject({ key: "end-call@1.0.0", enabled: true, parameters: { type: "object" } });
    const book = res.body.functions.find((f: { name: string }) => f.name === "bookAppointment");
    expect(book).toMatchObject({ appId: "schedule", enabled: false });
    expect(book.parameters.required).toContain("start");
    const all = await call("GET", "/api/v2/agent/functions", { ...o1, query: { installedOnly: false } });
    expect(all.body.functions.some((f: { name: string }) => f.name === "callWebhook")).toBe(true);
    expect(all.body.functions[0].enabled).toBeNull();
    const foreignAgent = await call("GET", "/api/v2/agent/functions", {
      ...o1,
      query: { agentId: world.accounts.A2.id },
    });
    expect(foreignAgent.status).toBe(404);
  });

  it("refuses changes from an organisation admin of another tenant", async () => {
    const res = await call("POST", "/api/v2/apps/end-call/1.0.0", {
      token: world.members.uOwner.token,
      targetAccountId: world.accounts.O1.id,
      body: {},
    });
    expect(res.status).toBe(404);
  });
});
