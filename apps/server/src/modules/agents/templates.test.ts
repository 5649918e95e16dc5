import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../../../test/api-call.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { seedDemoAgents } from "../../db/seed.ts";

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

const dental = {
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
    const r1 = { token: world.members.r1Owner.token };
    const created = await call("POST", "/api/v2/templates/createTemplate", { ...r1, body: dental });
    expect(created.status).toBe(200);
    const template = created.body.template;
    expect(template).toMatchObject({
      name: "Dental receptionist",
      ownerAccountId: world.accounts.R1.id,
      builtIn: false,
      editable: true,
      apps: [{ appId: "schedule", version: "1.0.0" }],
      revision: 1,
    });

    // The organisation below sees it (read-only); another tenant does not.
    const o1List = await call("GET", "/api/v2/templates", { token: world.members.o1Owner.token });
    const seen = o1List.body.templates.find((t: { id: number }) => t.id === template.id);
    expect(seen).toMatchObject({ editable: false });
    const o2List = await call("GET", "/api/v2/templates", { token: world.members.o2Owner.token });
    expect(o2List.body.templates.some((t: { id: number }) => t.id === template.id)).toBe(false);
    const o2Get = await call("GET", `/api/v2/templates/${template.id}`, {
      token: world.members.o2Owner.token,
    });
    expect(o2Get.status).toBe(404);
    expect(o2Get.body).toEqual({ success: false, message: "Template not found" });
    const o1Edit = await call("POST", `/api/v2/templates/${template.id}`, {
      token: world.members.o1Owner.token,
      body: { name: "Mine now" },
    });
    expect(o1Edit.status).toBe(403);

    const updated = await call("POST", `/api/v2/templates/${template.id}`, {
      ...r1,
      body: { name: "Dental front desk", revision: 1 },
    });
    expect(updated.body.template).toMatchObject({ name: "Dental front desk", revision: 2 });
    const stale = await call("POST", `/api/v2/templates/${template.id}`, {
      ...r1,
      body: { name: "Stale", revision: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ success: false, current: { name: "Dental front desk" } });

    const implied = await call("POST", "/api/v2/templates/createTemplate", {
      ...r1,
      body: { name: "Booker", actions: [{ name: "schedule" }] },
    });
    expect(implied.body.template.templateIntegrations).toEqual(["calendar"]);
    const badFunction = await call("POST", "/api/v2/templates/createTemplate", {
      ...r1,
      body: { name: "Bad", enabledFunctions: { "end-call@1.0.0": ["fly"] } },
    });
    expect(badFunction.body).toEqual({
      success: false,
      message: "enabledFunctions: end-call@1.0.0 has no function fly",
    });
    const blank = await call("POST", "/api/v2/templates/createTemplate", { ...r1, body: { name: " " } });
    expect(blank.status).toBe(400);
    const removed = await call("DELETE", `/api/v2/templates/${template.id}`, r1);
    expect(removed.body).toEqual({ success: true, message: "Template deleted." });
    expect((await call("GET", `/api/v2/templates/${template.id}`, r1)).status).toBe(404);
  });

  it("only a super admin makes built-in templates", async () => {
    const refused = await call("POST", "/api/v2/templates/createTemplate", {
      token: world.members.p1Owner.token,
      body: { name: "Global", builtIn: true },
    });
    expect(refused.status).toBe(403);
    const made = await call("POST", "/api/v2/templates/createTemplate", {
      token: world.members.superAdmin.token,
      body: { name: "Global one", builtIn: true, agentInstructions: "Hello" },
    });
    expect(made.body.template).toMatchObject({ builtIn: true, ownerAccountId: null });
    const seenByU = await call("GET", `/api/v2/templates/${made.body.template.id}`, {
      token: world.members.uOwner.token,
    });
    expect(seenByU.body.template).toMatchObject({ name: "Global one", editable: false });
  });

  it("makes an agent from a template, replaces variables per role, migrates (dry run vs real), detaches", async () => {
    const o1 = { token: world.members.o1Owner.token };
    const template = (await call("POST", "/api/v2/templates/createTemplate", { ...o1, body: dental })).body
      .template;
    const made = await call("POST", "/api/v2/createAgentFromTemplate", {
      ...o1,
      body: { templateId: template.id, name: "Smile desk", templateFields: { clinicName: "Smile Co" } },
    });
    expect(made.status).toBe(200);
    const agentId = made.body.account.id;
    expect(made.body.account).toMatchObject({ accountType: "agent", organizationId: world.accounts.O1.id });
    expect(made.body.campaign).toMatchObject({
      templateId: template.id,
      variables: { clinicName: "Smile Co", hours: "9-5" },
      actions: [{ name: "schedule" }],
    });

    // Event rules: the owner gets variables replaced; a reseller above does not unless forced.
    const ownerRules = await call("GET", "/api/v2/agentEventRules/default", { ...o1, query: { agentId } });
    expect(ownerRules.body.rules).toMatchObject({
      stage: "production",
      agentInstructions: "You are the receptionist of Smile Co. Opening hours: 9-5.",
      templateVariablesReplaced: true,
    });
    const raw = await call("GET", "/api/v2/agentEventRules/staging", {
      ...o1,
      query: { agentId, replaceTemplateVars: false },
    });
    expect(raw.body.rules.agentInstructions).toContain("{clinicName}");
    const reseller = await call("GET", "/api/v2/agentEventRules/default", {
      token: world.members.r1Owner.token,
      targetAccountId: agentId,
    });
    expect(reseller.body.rules.templateVariablesReplaced).toBe(false);
    const forced = await call("GET", "/api/v2/agentEventRules/default", {
      token: world.members.r1Owner.token,
      targetAccountId: agentId,
      query: { forceReplaceTemplateVars: true },
    });
    expect(forced.body.rules.agentInstructions).toContain("Smile Co");
    const asOwner = await call("GET", "/api/v2/agentEventRules/default", {
      token: world.members.r1Owner.token,
      targetAccountId: agentId,
      query: { viewingAs: "owner" },
    });
    expect(asOwner.body.rules.templateVariablesReplaced).toBe(true);

    // The template changes; a dry run reports without changing, the real run changes both copies.
    await call("POST", `/api/v2/templates/${template.id}`, {
      ...o1,
      body: {
        agentInstructions: "New prompt for {clinicName}.",
        actions: [{ name: "schedule" }, { name: "transfer" }],
      },
    });
    const dry = await call("POST", `/api/v2/templates/${template.id}/migrate`, {
      ...o1,
      body: { dryRun: true },
    });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      success: true,
      migration: { dryRun: true, migrated: 1, agents: [{ agentId, stages: ["production", "staging"] }] },
    });
    expect(dry.body.migration.agents[0].changedFields.sort()).toEqual(["actions", "agentInstructions"]);
    expect(typeof dry.body.message).toBe("string");
    const before = await call("GET", "/api/v2/campaigns", { ...o1, query: { agentId } });
    expect(before.body.staging.agentInstructions).toContain("You are the receptionist");

    const real = await call("POST", `/api/v2/templates/${template.id}/migrate`, { ...o1, body: {} });
    expect(real.body.migration).toMatchObject({ dryRun: false, migrated: 1 });
    const after = await call("GET", "/api/v2/campaigns", { ...o1, query: { agentId } });
    expect(after.body.staging.agentInstructions).toBe("New prompt for {clinicName}.");
    expect(after.body.production.actions).toHaveLength(2);
    expect(after.body.staging.variables).toEqual({ clinicName: "Smile Co", hours: "9-5" });
    const again = await call("POST", `/api/v2/templates/${template.id}/migrate`, { ...o1, body: {} });
    expect(again.body.migration.migrated).toBe(0);

    // Another tenant cannot migrate or use it.
    const foreign = await call("POST", `/api/v2/templates/${template.id}/migrate`, {
      token: world.members.o2Owner.token,
      body: { dryRun: true },
    });
    expect(foreign.status).toBe(404);
    const foreignAgent = await call("POST", "/api/v2/createAgentFromTemplate", {
      token: world.members.o2Owner.token,
      body: { templateId: template.id, name: "Copycat" },
    });
    expect(foreignAgent.status).toBe(404);

    // Detached agents no longer migrate.
    await call("POST", "/api/v2/detachAgentFromTemplate", { ...o1, body: { agentId } });
    const detached = await call("POST", `/api/v2/templates/${template.id}/migrate`, {
      ...o1,
      body: { dryRun: true },
    });
    expect(detached.body.migration.agents).toEqual([]);
  });

  it("a reseller's template migrates the agents its organisations made from it", async () => {
    const r1 = { token: world.members.r1Owner.token };
    const template = (
      await call("POST", "/api/v2/templates/createTemplate", {
        ...r1,
        body: { name: "Reseller base", agentInstructions: "Base {x}" },
      })
    ).body.template;
    const made = await call("POST", "/api/v2/createAgentFromTemplate", {
      token: world.members.o1Owner.token,
      body: { templateId: template.id, name: "From reseller" },
    });
    expect(made.status).toBe(200);
    await call("POST", `/api/v2/templates/${template.id}`, {
      ...r1,
      body: { agentInstructions: "Base v2 {x}" },
    });
    const dry = await call("POST", `/api/v2/templates/${template.id}/migrate`, {
      ...r1,
      body: { dryRun: true },
    });
    expect(dry.body.migration.agents.map((a: { agentId: number }) => a.agentId)).toEqual([
      made.body.account.id,
    ]);
    expect(dry.body.migration.migrated).toBe(1);
  });

  it("the demo's built-in templates and template-made agent work through the API", async () => {
    const { O1, A1 } = world.accounts;
    await seedDemoAgents(app.context.database.db, O1.id, A1.id);
    const o1 = { token: world.members.o1Owner.token };
    const listed = await call("GET", "/api/v2/templates", o1);
    const names = listed.body.templates
      .filter((t: { builtIn: boolean }) => t.builtIn)
      .map((t: { name: string }) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "Dental clinic receptionist",
        "Roofing lead qualifier",
        "Restaurant reservations",
      ]),
    );
    const dental = listed.body.templates.find(
      (t: { name: string }) => t.name === "Dental clinic receptionist",
    );
    expect(dental.templateFields.length).toBeGreaterThan(2);
    expect(dental.templateIntegrations).toEqual(["calendar"]);
    const rules = await call("GET", "/api/v2/agentEventRules/default", { ...o1, query: { agentId: A1.id } });
    expect(rules.body.rules).toMatchObject({ stage: "production", templateId: dental.id });
    expect(rules.body.rules.agentInstructions).toContain("receptionist of Bluebird Dental");
    const functions = await call("GET", "/api/v2/agent/functions", { ...o1, query: { agentId: A1.id } });
    expect(functions.body.functions.find((f: { name: string }) => f.name === "bookAppointment").enabled).toBe(
      true,
    );
    const roofer = await call("POST", "/api/v2/createAgentFromTemplate", {
      ...o1,
      body: {
        templateId: listed.body.templates.find((t: { name: string }) => t.name === "Roofing lead qualifier")
          .id,
        name: "Roof leads",
        templateFields: [{ key: "companyName", value: "Peak Roofing" }],
      },
    });
    expect(roofer.body.campaign.variables).toMatchObject({ companyName: "Peak Roofing" });
  });
});
