import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../../../test/api-call.ts";
import { buildHierarchy, fingerprints } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { createAccountsRepository } from "../accounts/accounts.repository.ts";

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

/** A fresh agent account under O1, so tests do not share state. */
async function newAgent(name: string) {
  const repo = createAccountsRepository(app.context.database.db);
  return repo.insertAccount(world.accounts.O1, {
    accountType: "agent",
    usernameFrom: `${name}-${world.tag}`,
    details: { agentName: name },
  });
}

describe("campaigns", () => {
  it("answers a default staging campaign (revision 0) and no production for a new agent", async () => {
    const agent = await newAgent("fresh");
    const res = await call("GET", "/api/v2/campaigns", {
      token: world.members.o1Owner.token,
      targetAccountId: agent.id,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      agentId: agent.id,
      production: null,
      staging: { agentInstructions: "", published: true, confirmTransfers: false, revision: 0, apps: [] },
    });
  });

  it("refuses an empty prompt with the spec's message", async () => {
    const agent = await newAgent("empty");
    const res = await call("POST", "/api/v2/campaign", {
      token: world.members.o1Owner.token,
      targetAccountId: agent.id,
      body: { agentInstructions: "   " },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: "Please enter a prompt." });
  });

  it("saves with defaults, de-duplicates apps, and refuses a stale revision with 409 and the current copy", async () => {
    const agent = await newAgent("saver");
    const first = await call("POST", "/api/v2/campaign", {
      token: world.members.o1Owner.token,
      query: { agentId: agent.id },
      body: {
        agentId: agent.id,
        revision: 0,
        agentInstructions: "You answer the phone.",
        apps: [
          { appId: "end-call", version: "1.0.0" },
          { appId: "end-call", version: "1.0.0" },
        ],
        enabledFunctions: { "end-call@1.0.0": ["endCall"] },
        actions: [{ name: "schedule", duration: 30 }],
      },
    });
    expect(first.status).toBe(200);
    expect(first.body.campaign).toMatchObject({
      stage: "staging",
      revision: 1,
      published: true,
      confirmTransfers: false,
      apps: [{ appId: "end-call", version: "1.0.0" }],
      actions: [{ name: "schedule", duration: 30 }],
    });

    const second = await call("POST", "/api/v2/campaign", {
      token: world.members.o1Admin.token,
      body: { agentId: agent.id, revision: 1, agentInstructions: "Second edit.", published: false },
    });
    expect(second.status).toBe(200);
    expect(second.body.campaign).toMatchObject({
      revision: 2,
      published: false,
      agentInstructions: "Second edit.",
    });
    // Fields left out keep their values.
    expect(second.body.campaign.apps).toEqual([{ appId: "end-call", version: "1.0.0" }]);

    const unknownApp = await call("POST", "/api/v2/campaign", {
      token: world.members.o1Owner.token,
      body: { agentId: agent.id, agentInstructions: "x", enabledFunctions: { "nope@1": ["x"] } },
    });
    expect(unknownApp.body).toEqual({ success: false, message: "enabledFunctions: unknown app nope@1" });

    const stale = await call("POST", "/api/v2/campaign", {
      token: world.members.o1Owner.token,
      body: { agentId: agent.id, revision: 1, agentInstructions: "Stale edit." },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      success: false,
      message: "This agent was changed elsewhere. Review the newer version.",
      current: { revision: 2, agentInstructions: "Second edit." },
    });

    // A stale first save (revision 0 when a copy exists) is refused too; no revision means no check.
    const staleFirst = await call("POST", "/api/v2/campaign", {
      token: world.members.o1Owner.token,
      body: { agentId: agent.id, revision: 0, agentInstructions: "Stale edit." },
    });
    expect(staleFirst.status).toBe(409);
    const unchecked = await call("POST", "/api/v2/campaign", {
      token: world.members.o1Owner.token,
      body: { agentId: agent.id, agentInstructions: "Old client." },
    });
    expect(unchecked.body.campaign.revision).toBe(3);
  });

  it("publishes staging to production and reverts staging from production", async () => {
    const agent = await newAgent("publisher");
    const owner = { token: world.members.o1Owner.token, targetAccountId: agent.id };
    const notYet = await call("POST", "/api/v2/agent/revert", { ...owner, body: {} });
    expect(notYet.status).toBe(400);
    const empty = await call("POST", "/api/v2/agent/publish", { ...owner, body: {} });
    expect(empty.body).toEqual({ success: false, message: "Please enter a prompt." });

    await call("POST", "/api/v2/campaign", {
      ...owner,
      body: { agentInstructions: "Version A", published: false },
    });
    const stalePublish = await call("POST", "/api/v2/agent/publish", { ...owner, body: { revision: 0 } });
    expect(stalePublish.status).toBe(409);
    expect(stalePublish.body.current).toMatchObject({ agentInstructions: "Version A", revision: 1 });
    const published = await call("POST", "/api/v2/agent/publish", { ...owner, body: { revision: 1 } });
    expect(published.status).toBe(200);
    expect(published.body.production).toMatchObject({ agentInstructions: "Version A", published: true });
    expect(published.body.staging).toMatchObject({ agentInstructions: "Version A", published: true });

    const edited = await call("POST", "/api/v2/campaign", {
      ...owner,
      body: { agentInstructions: "Version B", published: false, revision: published.body.staging.revision },
    });
    expect(edited.status).toBe(200);
    const reverted = await call("POST", "/api/v2/agent/revert", { ...owner, body: {} });
    expect(reverted.status).toBe(200);
    expect(reverted.body.staging).toMatchObject({ agentInstructions: "Version A", published: true });
    expect(reverted.body.staging.revision).toBeGreaterThan(edited.body.campaign.revision);
  });

  it("detaches an agent from its template in both copies", async () => {
    const agent = await newAgent("detach");
    const owner = { token: world.members.o1Owner.token, targetAccountId: agent.id };
    const missing = await call("POST", "/api/v2/campaign", {
      ...owner,
      body: { agentInstructions: "Hi", templateId: 999999 },
    });
    expect(missing.body).toEqual({ success: false, message: "Template not found" });
    const foreignTemplate = await call("POST", "/api/v2/templates/createTemplate", {
      token: world.members.o2Owner.token,
      body: { name: "O2 only" },
    });
    const sideways = await call("POST", "/api/v2/campaign", {
      ...owner,
      body: { agentInstructions: "Hi", templateId: foreignTemplate.body.template.id },
    });
    expect(sideways.status).toBe(404);
    const own = await call("POST", "/api/v2/templates/createTemplate", {
      token: world.members.o1Owner.token,
      body: { name: "O1 base" },
    });
    const templateId = own.body.template.id;
    await call("POST", "/api/v2/campaign", { ...owner, body: { agentInstructions: "Hi", templateId } });
    await call("POST", "/api/v2/agent/publish", { ...owner, body: {} });
    const res = await call("POST", "/api/v2/detachAgentFromTemplate", { ...owner, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.staging.templateId).toBeNull();
    expect(res.body.production.templateId).toBeNull();
  });

  it("lets the reseller and partner above act, and refuses foreign callers without leaking", async () => {
    const agent = await newAgent("shared");
    for (const member of [world.members.r1Owner, world.members.p1Owner, world.members.superAdmin]) {
      const res = await call("GET", "/api/v2/campaigns", { token: member.token, targetAccountId: agent.id });
      expect(res.status).toBe(200);
    }
    const foreign = await call("GET", "/api/v2/campaigns", {
      token: world.members.o2Owner.token,
      targetAccountId: agent.id,
    });
    expect(foreign.status).toBe(404);
    // An agentId outside the target's subtree: the same 404, nothing of A2 in the answer.
    const sideways = await call("GET", "/api/v2/campaigns", {
      token: world.members.o1Owner.token,
      query: { agentId: world.accounts.A2.id },
    });
    expect(sideways.status).toBe(404);
    expect(sideways.body).toEqual({ success: false, message: "Agent not found" });
    for (const mark of fingerprints(world.accounts.A2))
      expect(JSON.stringify(sideways.body)).not.toContain(mark);
    // On an organisation without agentId: which agent is meant must be said.
    const noAgent = await call("GET", "/api/v2/campaigns", { token: world.members.o1Owner.token });
    expect(noAgent.status).toBe(400);
  });
});

describe("versions", () => {
  it("snapshots staging, lists, renames, replaces and restores (round trip)", async () => {
    const agent = await newAgent("versioned");
    const owner = { token: world.members.o1Owner.token };
    const base = `/api/v2/agent/${agent.id}/versions`;
    await call("POST", "/api/v2/campaign", {
      ...owner,
      body: { agentId: agent.id, agentInstructions: "Prompt one", actions: [{ name: "transfer" }] },
    });
    const made = await call("POST", base, { ...owner, body: { title: "First" } });
    expect(made.status).toBe(200);
    expect(made.body.version).toMatchObject({
      title: "First",
      source: "staging",
      snapshot: { agentInstructions: "Prompt one", actions: [{ name: "transfer" }] },
    });
    const versionId = made.body.version.id;

    const fromProduction = await call("POST", base, { ...owner, body: { source: "production" } });
    expect(fromProduction.body).toEqual({
      success: false,
      message: "This agent has not been published yet.",
    });

    await call("POST", "/api/v2/campaign", {
      ...owner,
      body: { agentId: agent.id, agentInstructions: "Prompt two" },
    });

    const listed = await call("GET", base, owner);
    expect(listed.body.versions).toHaveLength(1);
    expect(listed.body.versions[0].snapshot).toBeUndefined();
    const withData = await call("GET", base, { ...owner, query: { includeData: true } });
    expect(withData.body.versions[0].snapshot.agentInstructions).toBe("Prompt one");

    const renamed = await call("PUT", `${base}/${versionId}/title`, { ...owner, body: { title: "Renamed" } });
    expect(renamed.body.version.title).toBe("Renamed");
    const blank = await call("PUT", `${base}/${versionId}/title`, { ...owner, body: { title: " " } });
    expect(blank.status).toBe(400);

    const restored = await call("POST", `${base}/${versionId}/restore`, { ...owner, body: {} });
    expect(restored.status).toBe(200);
    expect(restored.body.campaign).toMatchObject({
      stage: "staging",
      agentInstructions: "Prompt one",
      published: false,
      actions: [{ name: "transfer" }],
    });

    const replaced = await call("POST", `${base}/${versionId}`, {
      ...owner,
      body: { snapshot: { agentInstructions: "Replaced prompt" } },
    });
    expect(replaced.body.version.snapshot).toMatchObject({
      agentInstructions: "Replaced prompt",
      actions: [{ name: "transfer" }],
    });
    const toProduction = await call("POST", `${base}/${versionId}/restore`, {
      ...owner,
      body: { target: "production" },
    });
    expect(toProduction.body.campaign).toMatchObject({
      stage: "production",
      agentInstructions: "Replaced prompt",
    });
  });

  it("answers 404 for a version of another agent and for a foreign agent id", async () => {
    const one = await newAgent("v-one");
    const two = await newAgent("v-two");
    const owner = { token: world.members.o1Owner.token };
    const made = await call("POST", `/api/v2/agent/${one.id}/versions`, { ...owner, body: {} });
    expect(made.body.version.title).toBe("Version 1");
    const wrongAgent = await call(
      "POST",
      `/api/v2/agent/${two.id}/versions/${made.body.version.id}/restore`,
      {
        ...owner,
        body: {},
      },
    );
    expect(wrongAgent.status).toBe(404);
    expect(wrongAgent.body.message).toBe("Version not found");
    const foreign = await call("GET", `/api/v2/agent/${world.accounts.A2.id}/versions`, owner);
    expect(foreign.status).toBe(404);
  });
});
