import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../../../test/api-call.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { installedApps } from "../../db/schema/index.ts";
import { createOutbound } from "../../http/outbound.ts";
import { TOOL_EXECUTORS, type ToolContext } from "../runtime/tool-executors.ts";

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
    expect(merged.body.app.data).toEqual({ url: "https://hooks.example/a", secret: "••••" });
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

describe("the webhook app's secret", () => {
  const path = "/api/v2/apps/webhook/1.0.0";
  const storedData = async (accountId: number) => {
    const [row] = await app.context.database.db
      .select()
      .from(installedApps)
      .where(and(eq(installedApps.accountId, accountId), eq(installedApps.appId, "webhook")));
    return row?.data as Record<string, string>;
  };

  it("is stored encrypted, answered masked, revealed and rotated only on purpose", async () => {
    const o2 = { token: world.members.o2Owner.token };
    const secret = "whsec_the-owners-own-secret-123";
    await call("POST", path, { ...o2, body: { data: { url: "https://hooks.example/x", secret } } });
    const stored = await storedData(world.accounts.O2.id);
    expect(stored.secret).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toContain("owners-own");
    const listed = await call("GET", "/api/v2/apps", o2);
    expect(JSON.stringify(listed.body)).not.toContain("owners-own");
    const shown = listed.body.apps.find((a: { appId: string }) => a.appId === "webhook").data.secret;
    expect(shown).toBe("whs…-123");
    // Sending the mask back (a form that saves every field) keeps the secret.
    await call("PUT", path, { ...o2, body: { data: { url: "https://hooks.example/y", secret: shown } } });
    const revealed = await call("POST", `${path}/secret`, {
      ...o2,
      body: { name: "secret", action: "reveal" },
    });
    expect(revealed.body).toEqual({ success: true, name: "secret", value: secret });

    const rotated = await call("POST", `${path}/secret`, {
      ...o2,
      body: { name: "secret", action: "rotate" },
    });
    expect(rotated.body.value).toMatch(/^whsec_/);
    expect(rotated.body.value).not.toBe(secret);
    const after = await call("POST", `${path}/secret`, { ...o2, body: { name: "secret", action: "reveal" } });
    expect(after.body.value).toBe(rotated.body.value);
    expect(
      (await call("POST", `${path}/secret`, { ...o2, body: { name: "url", action: "reveal" } })).status,
    ).toBe(400);
    // An admin may not reveal it through another tenant, and a tenant without the app gets a 404.
    const foreign = await call("POST", `${path}/secret`, {
      token: world.members.uOwner.token,
      body: { name: "secret", action: "reveal" },
    });
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain("whsec_");
  });

  it("signs the tool's POST with the decrypted secret, through the guarded way out", async () => {
    const received: { body: string; signature: string | undefined }[] = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        received.push({ body, signature: req.headers["x-switchboard-signature"] as string | undefined });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const context = (outbound: ReturnType<typeof createOutbound>) =>
      ({
        preview: false,
        agentId: 1,
        roomId: "r",
        conversationUuid: "u",
        now: () => Date.parse("2030-01-01T00:00:00Z"),
        toolTimeoutMs: 2000,
        webhookSettings: async () => ({ url, secret: "s3cret" }),
        outbound,
      }) as unknown as ToolContext;
    try {
      const closed = createOutbound({ allowlist: [], httpsOnly: false, timeoutMs: 2000, maxBytes: 1024 });
      await expect(TOOL_EXECUTORS.callWebhook?.({ payload: { a: 1 } }, context(closed))).rejects.toThrow(
        "This address is on a private network",
      );
      expect(received).toHaveLength(0);
      await closed.close();

      const allowed = createOutbound({
        allowlist: [new URL(url).host],
        httpsOnly: false,
        timeoutMs: 2000,
        maxBytes: 1024,
      });
      const result = await TOOL_EXECUTORS.callWebhook?.({ payload: { a: 1 } }, context(allowed));
      expect(result).toMatchObject({ status: 200, answer: { ok: true } });
      const [hit] = received;
      expect(hit?.signature).toBe(
        `sha256=${createHmac("sha256", "s3cret")
          .update(hit?.body ?? "")
          .digest("hex")}`,
      );
      await allowed.close();
    } finally {
      receiver.close();
    }
  });
});
