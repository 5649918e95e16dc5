import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, refusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { seedDemoAgents } from "../../demo/seed.ts";

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

const dental: api.RouteBody<typeof api.createTemplate> = {
  name: "Dental receptionist",
  description: "Answers for a dental clinic",
  agentInstructions: "You are the receptionist of {clinicName}. Opening hours: {hours}.",
  templateFields: [
    { key: "clinicName", label: "Clinic name", type: "string" },
    { key: "hours", label: "Opening hours", type: "string", value: "9-5" },
  ],
  templateIntegrations: ["calendar"],
  actions: [{ name: "schedule" }],
  apps: [
    { appId: "schedule", version: "1.0.0" },
    { appId: "schedule", version: "1.0.0" },
  ],
};

describe("templates", () => {
  it("creates, lists by visibility, reads, updates with a stale check and deletes", async () => {
    const r1 = client(world.members.r1Owner.token);
    const created = await r1.call(api.createTemplate, { body: dental });
    const template = created.template;
    expect(template).toMatchObject({
      name: "Dental receptionist",
      ownerAccountId: world.accounts.R1.id,
      builtIn: false,
      editable: true,
      apps: [{ appId: "schedule", version: "1.0.0" }],
      revision: 1,
    });
    const params = { id: template.id };

    // The organisation below sees it (read-only); another tenant does not.
    const o1List = await client(world.members.o1Owner.token).call(api.listTemplates);
    const seen = o1List.templates.find((t) => t.id === template.id);
    expect(seen).toMatchObject({ editable: false });
    const o2List = await client(world.members.o2Owner.token).call(api.listTemplates);
    expect(o2List.templates.some((t) => t.id === template.id)).toBe(false);
    const o2Get = await expectRefusal(
      client(world.members.o2Owner.token).call(api.getTemplate, { params }),
      404,
    );
    expect(o2Get.body).toEqual({ success: false, message: "Template not found" });
    await expectRefusal(
      client(world.members.o1Owner.token).call(api.updateTemplate, { params, body: { name: "Mine now" } }),
      403,
    );

    const updated = await r1.call(api.updateTemplate, {
      params,
      body: { name: "Dental front desk", revision: 1 },
    });
    expect(updated.template).toMatchObject({ name: "Dental front desk", revision: 2 });
    const stale = await expectRefusal(
      r1.call(api.updateTemplate, { params, body: { name: "Stale", revision: 1 } }),
      409,
    );
    expect(stale.body).toMatchObject({ success: false, current: { name: "Dental front desk" } });

    const implied = await r1.call(api.createTemplate, {
      body: { name: "Booker", actions: [{ name: "schedule" }] },
    });
    expect(implied.template.templateIntegrations).toEqual(["calendar"]);
    const badFunction = await refusal(
      r1.call(api.createTemplate, {
        body: { name: "Bad", enabledFunctions: { "end-call@1.0.0": ["fly"] } },
      }),
    );
    expect(badFunction.body).toEqual({
      success: false,
      message: "enabledFunctions: end-call@1.0.0 has no function fly",
    });
    await expectRefusal(r1.call(api.createTemplate, { body: { name: " " } }), 400);
    const removed = await r1.call(api.deleteTemplate, { params });
    expect(removed).toEqual({ success: true, message: "Template deleted." });
    await expectRefusal(r1.call(api.getTemplate, { params }), 404);
  });

  it("only a super admin makes built-in templates", async () => {
    await expectRefusal(
      client(world.members.p1Owner.token).call(api.createTemplate, {
        body: { name: "Global", builtIn: true },
      }),
      403,
    );
    const made = await client(world.members.superAdmin.token).call(api.createTemplate, {
      body: { name: "Global one", builtIn: true, agentInstructions: "Hello" },
    });
    expect(made.template).toMatchObject({ builtIn: true, ownerAccountId: null });
    const seenByU = await client(world.members.uOwner.token).call(api.getTemplate, {
      params: { id: made.template.id },
    });
    expect(seenByU.template).toMatchObject({ name: "Global one", editable: false });
  });

  it("makes an agent from a template, replaces variables per role, migrates (dry run vs real), detaches", async () => {
    const o1 = client(world.members.o1Owner.token);
    const template = (await o1.call(api.createTemplate, { body: dental })).template;
    const params = { id: template.id };
    const made = await o1.call(api.createAgentFromTemplate, {
      body: { templateId: template.id, name: "Smile desk", templateFields: { clinicName: "Smile Co" } },
    });
    const agentId = made.account.id;
    expect(made.account).toMatchObject({ accountType: "agent", organizationId: world.accounts.O1.id });
    expect(made.campaign).toMatchObject({
      templateId: template.id,
      variables: { clinicName: "Smile Co", hours: "9-5" },
      actions: [{ name: "schedule" }],
    });
    // The template's apps that need no settings are installed for the organisation, so the agent's
    // Actions panel offers their functions.
    const installed = (await o1.call(api.listApps)).apps
      .filter((app) => app.installed)
      .map((app) => app.appId);
    expect(installed).toEqual(["schedule"]);
    const functions = await o1.call(api.listAgentFunctions, { query: { agentId } });
    expect(functions.functions.map((fn) => fn.name)).toEqual(["checkAvailability", "bookAppointment"]);

    // Event rules: the owner gets variables replaced; a reseller above does not unless forced.
    const ownerRules = await o1.call(api.getDefaultEventRules, { query: { agentId } });
    expect(ownerRules.rules).toMatchObject({
      stage: "production",
      agentInstructions: "You are the receptionist of Smile Co. Opening hours: 9-5.",
      templateVariablesReplaced: true,
    });
    const raw = await o1.call(api.getStagingEventRules, { query: { agentId, replaceTemplateVars: false } });
    expect(raw.rules.agentInstructions).toContain("{clinicName}");
    const reseller = client(world.members.r1Owner.token, agentId);
    const resellerRules = await reseller.call(api.getDefaultEventRules);
    expect(resellerRules.rules.templateVariablesReplaced).toBe(false);
    const forced = await reseller.call(api.getDefaultEventRules, {
      query: { forceReplaceTemplateVars: true },
    });
    expect(forced.rules.agentInstructions).toContain("Smile Co");
    // viewingAs is read by the access hook from any call's query, outside each route's own schema.
    const asOwner = await reseller.call(api.getDefaultEventRules, {
      query: { viewingAs: "owner" } as api.RouteQuery<typeof api.getDefaultEventRules>,
    });
    expect(asOwner.rules.templateVariablesReplaced).toBe(true);

    // The template changes; a dry run reports without changing, the real run changes both copies.
    await o1.call(api.updateTemplate, {
      params,
      body: {
        agentInstructions: "New prompt for {clinicName}.",
        actions: [{ name: "schedule" }, { name: "transfer" }],
      },
    });
    const dry = await o1.call(api.migrateTemplate, { params, body: { dryRun: true } });
    expect(dry).toMatchObject({
      success: true,
      migration: { dryRun: true, migrated: 1, agents: [{ agentId, stages: ["production", "staging"] }] },
    });
    expect(dry.migration.agents[0]?.changedFields.sort()).toEqual(["actions", "agentInstructions"]);
    expect(typeof dry.message).toBe("string");
    const before = await o1.call(api.getCampaigns, { query: { agentId } });
    expect(before.staging.agentInstructions).toContain("You are the receptionist");

    const real = await o1.call(api.migrateTemplate, { params, body: {} });
    expect(real.migration).toMatchObject({ dryRun: false, migrated: 1 });
    const after = await o1.call(api.getCampaigns, { query: { agentId } });
    expect(after.staging.agentInstructions).toBe("New prompt for {clinicName}.");
    expect(after.production?.actions).toHaveLength(2);
    expect(after.staging.variables).toEqual({ clinicName: "Smile Co", hours: "9-5" });
    const again = await o1.call(api.migrateTemplate, { params, body: {} });
    expect(again.migration.migrated).toBe(0);

    // Another tenant cannot migrate or use it.
    const o2 = client(world.members.o2Owner.token);
    await expectRefusal(o2.call(api.migrateTemplate, { params, body: { dryRun: true } }), 404);
    await expectRefusal(
      o2.call(api.createAgentFromTemplate, { body: { templateId: template.id, name: "Copycat" } }),
      404,
    );

    // Detached agents no longer migrate.
    await o1.call(api.detachAgentFromTemplate, { body: { agentId } });
    const detached = await o1.call(api.migrateTemplate, { params, body: { dryRun: true } });
    expect(detached.migration.agents).toEqual([]);
  });

  it("an app the owner removed stays removed when the agent's next save lists it; an added one installs", async () => {
    const o1 = client(world.members.o1Owner.token);
    const template = (await o1.call(api.createTemplate, { body: { ...dental, name: "Apps kept" } })).template;
    const made = await o1.call(api.createAgentFromTemplate, {
      body: { templateId: template.id, name: "Apps desk", templateFields: { clinicName: "Apps Co" } },
    });
    await o1.call(api.uninstallApp, { params: { appId: "schedule", appVersion: "1.0.0" } });
    await o1.call(api.saveCampaign, {
      body: {
        agentId: made.account.id,
        agentInstructions: "You are the receptionist of {clinicName}.",
        apps: [
          { appId: "schedule", version: "1.0.0" },
          { appId: "end-call", version: "1.0.0" },
        ],
      },
    });
    const kept = (await o1.call(api.listApps)).apps.filter((app) => app.installed).map((app) => app.appId);
    expect(kept).toEqual(["end-call"]);
    await o1.call(api.uninstallApp, { params: { appId: "end-call", appVersion: "1.0.0" } });
  });

  it("a reseller's template migrates the agents its organisations made from it", async () => {
    const r1 = client(world.members.r1Owner.token);
    const template = (
      await r1.call(api.createTemplate, { body: { name: "Reseller base", agentInstructions: "Base {x}" } })
    ).template;
    const params = { id: template.id };
    const made = await client(world.members.o1Owner.token).call(api.createAgentFromTemplate, {
      body: { templateId: template.id, name: "From reseller" },
    });
    await r1.call(api.updateTemplate, { params, body: { agentInstructions: "Base v2 {x}" } });
    const dry = await r1.call(api.migrateTemplate, { params, body: { dryRun: true } });
    expect(dry.migration.agents.map((a) => a.agentId)).toEqual([made.account.id]);
    expect(dry.migration.migrated).toBe(1);
  });

  it("the demo's built-in templates and template-made agent work through the API", async () => {
    const { O1, A1 } = world.accounts;
    await seedDemoAgents(app.context.database.db, O1.id, A1.id);
    const o1 = client(world.members.o1Owner.token);
    const listed = await o1.call(api.listTemplates);
    const names = listed.templates.filter((t) => t.builtIn).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "Dental clinic receptionist",
        "Roofing lead qualifier",
        "Restaurant reservations",
      ]),
    );
    const dental = listed.templates.find((t) => t.name === "Dental clinic receptionist");
    expect(dental?.templateFields.length).toBeGreaterThan(2);
    expect(dental?.templateIntegrations).toEqual(["calendar"]);
    const rules = await o1.call(api.getDefaultEventRules, { query: { agentId: A1.id } });
    expect(rules.rules).toMatchObject({ stage: "production", templateId: dental?.id });
    expect(rules.rules.agentInstructions).toContain("receptionist of Bluebird Dental");
    const functions = await o1.call(api.listAgentFunctions, { query: { agentId: A1.id } });
    expect(functions.functions.find((f) => f.name === "bookAppointment")?.enabled).toBe(true);
    const roofTemplate = listed.templates.find((t) => t.name === "Roofing lead qualifier");
    const roofer = await o1.call(api.createAgentFromTemplate, {
      body: {
        templateId: roofTemplate?.id ?? 0,
        name: "Roof leads",
        templateFields: [{ key: "companyName", value: "Peak Roofing" }],
      },
    });
    expect(roofer.campaign.variables).toMatchObject({ companyName: "Peak Roofing" });
  });
});
