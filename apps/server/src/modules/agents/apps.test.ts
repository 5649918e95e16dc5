import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { installedApps } from "../../db/schema/index.ts";
import { createOutbound } from "../../http/outbound.ts";
import { TOOL_EXECUTORS, type ToolContext } from "../runtime/tool-executors.ts";

let app: FastifyInstance;
let client: TestClient;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  app = await buildTestApp();
  client = testClient(app);
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app.close();
});

const WEBHOOK = { appId: "webhook", appVersion: "1.0.0" };

describe("apps", () => {
  it("lists the built-in catalogue with auth parameters and function schemas", async () => {
    const res = await client(world.members.o1Owner.token).call(api.listApps);
    const ids = res.apps.map((a) => a.appId);
    expect(ids).toEqual([
      "schedule",
      "call-transfer",
      "keypad",
      "end-call",
      "send-sms",
      "collect-data",
      "webhook",
    ]);
    const webhook = res.apps.find((a) => a.appId === "webhook");
    expect(webhook?.dependencies.providers.auth.parameters.properties.url).toMatchObject({ default: "" });
    expect(webhook).toMatchObject({ installed: false, data: null });
    const unknown = await expectRefusal(
      client(world.members.o1Owner.token).call(api.getApp, {
        params: { appId: "nope", appVersion: "1.0.0" },
      }),
      404,
    );
    expect(unknown.body).toEqual({ success: false, message: "App not found" });
  });

  it("installs once (idempotent), updates data, reloads, uninstalls; per organisation", async () => {
    const o1 = client(world.members.o1Owner.token);
    const params = WEBHOOK;
    await expectRefusal(o1.call(api.installApp, { params, body: { data: { url: "not a url" } } }), 400);
    const first = await o1.call(api.installApp, {
      params,
      body: { data: { url: "https://hooks.example/a" } },
    });
    expect(first.app).toMatchObject({
      installed: true,
      data: { url: "https://hooks.example/a", secret: "" },
    });
    const again = await o1.call(api.installApp, {
      params,
      body: { data: { url: "https://hooks.example/b" } },
    });
    expect(again.app.data?.url).toBe("https://hooks.example/a");
    const listed = await o1.call(api.listApps);
    expect(listed.apps.filter((a) => a.installed)).toHaveLength(1);

    const merged = await o1.call(api.updateApp, { params, body: { data: { secret: "s3" } } });
    expect(merged.app.data).toEqual({ url: "https://hooks.example/a", secret: "••••" });
    const reloaded = await o1.call(api.updateApp, {
      params,
      body: { reload: true, data: { url: "https://x.example" } },
    });
    expect(reloaded.app.data).toEqual({ url: "https://x.example", secret: "" });

    // The agent account below uses its organisation's installation; another tenant sees nothing of it.
    const viaAgent = await client(world.members.o1Owner.token, world.accounts.A1.id).call(api.getApp, {
      params,
    });
    expect(viaAgent.app.installed).toBe(true);
    const foreign = await client(world.members.o2Owner.token).call(api.getApp, { params });
    expect(foreign.app.installed).toBe(false);
    expect(JSON.stringify(foreign)).not.toContain("x.example");

    const removed = await o1.call(api.uninstallApp, { params });
    expect(removed).toEqual({ success: true, message: "App removed." });
    await expectRefusal(o1.call(api.uninstallApp, { params }), 404);
    await expectRefusal(o1.call(api.updateApp, { params, body: {} }), 404);
  });

  it("offers the installed apps' functions and says which the agent enables", async () => {
    const o1 = client(world.members.o1Owner.token);
    const none = await o1.call(api.listAgentFunctions);
    expect(none.functions.some((f) => f.appId === "end-call")).toBe(false);
    await o1.call(api.installApp, { params: { appId: "end-call", appVersion: "1.0.0" }, body: {} });
    await o1.call(api.installApp, { params: { appId: "schedule", appVersion: "1.0.0" }, body: {} });
    await o1.call(api.saveCampaign, {
      body: {
        agentId: world.accounts.A1.id,
        agentInstructions: "Hi",
        apps: [{ appId: "end-call", version: "1.0.0" }],
        enabledFunctions: { "end-call@1.0.0": ["endCall"] },
      },
    });
    const res = await o1.call(api.listAgentFunctions, { query: { agentId: world.accounts.A1.id } });
    const endCall = res.functions.find((f) => f.name === "endCall");
    expect(endCall).toMatchObject({ key: "end-call@1.0.0", enabled: true, parameters: { type: "object" } });
    const book = res.functions.find((f) => f.name === "bookAppointment");
    expect(book).toMatchObject({ appId: "schedule", enabled: false });
    expect(book?.parameters.required).toContain("start");
    const all = await o1.call(api.listAgentFunctions, { query: { installedOnly: false } });
    expect(all.functions.some((f) => f.name === "callWebhook")).toBe(true);
    expect(all.functions[0]?.enabled).toBeNull();
    await expectRefusal(o1.call(api.listAgentFunctions, { query: { agentId: world.accounts.A2.id } }), 404);
  });

  it("refuses changes from an organisation admin of another tenant", async () => {
    await expectRefusal(
      client(world.members.uOwner.token, world.accounts.O1.id).call(api.installApp, {
        params: { appId: "end-call", appVersion: "1.0.0" },
        body: {},
      }),
      404,
    );
  });
});

describe("the webhook app's secret", () => {
  const params = WEBHOOK;
  const storedData = async (accountId: number) => {
    const [row] = await app.context.database.db
      .select()
      .from(installedApps)
      .where(and(eq(installedApps.accountId, accountId), eq(installedApps.appId, "webhook")));
    return row?.data as Record<string, string>;
  };

  it("is stored encrypted, answered masked, revealed and rotated only on purpose", async () => {
    const o2 = client(world.members.o2Owner.token);
    const secret = "whsec_the-owners-own-secret-123";
    await o2.call(api.installApp, { params, body: { data: { url: "https://hooks.example/x", secret } } });
    const stored = await storedData(world.accounts.O2.id);
    expect(stored.secret).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toContain("owners-own");
    const listed = await o2.call(api.listApps);
    expect(JSON.stringify(listed)).not.toContain("owners-own");
    const shown = listed.apps.find((a) => a.appId === "webhook")?.data?.secret;
    expect(shown).toBe("whs…-123");
    // Sending the mask back (a form that saves every field) keeps the secret.
    await o2.call(api.updateApp, {
      params,
      body: { data: { url: "https://hooks.example/y", secret: shown } },
    });
    const revealed = await o2.call(api.appSecret, { params, body: { name: "secret", action: "reveal" } });
    expect(revealed).toEqual({ success: true, name: "secret", value: secret });

    const rotated = await o2.call(api.appSecret, { params, body: { name: "secret", action: "rotate" } });
    expect(rotated.value).toMatch(/^whsec_/);
    expect(rotated.value).not.toBe(secret);
    const after = await o2.call(api.appSecret, { params, body: { name: "secret", action: "reveal" } });
    expect(after.value).toBe(rotated.value);
    await expectRefusal(o2.call(api.appSecret, { params, body: { name: "url", action: "reveal" } }), 400);
    // An admin may not reveal it through another tenant, and a tenant without the app gets a 404.
    const foreign = await expectRefusal(
      client(world.members.uOwner.token).call(api.appSecret, {
        params,
        body: { name: "secret", action: "reveal" },
      }),
      404,
    );
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
