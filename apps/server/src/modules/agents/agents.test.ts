import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, refusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, fingerprints } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { createAccountsRepository } from "../accounts/accounts.repository.ts";

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
    const res = await client(world.members.o1Owner.token, agent.id).call(api.getCampaigns);
    expect(res).toMatchObject({
      success: true,
      agentId: agent.id,
      production: null,
      staging: { agentInstructions: "", published: true, confirmTransfers: false, revision: 0, apps: [] },
    });
  });

  it("refuses an empty prompt with the spec's message", async () => {
    const agent = await newAgent("empty");
    const res = await expectRefusal(
      client(world.members.o1Owner.token, agent.id).call(api.saveCampaign, {
        body: { agentInstructions: "   " },
      }),
      400,
    );
    expect(res.body).toEqual({ success: false, message: "Please enter a prompt." });
  });

  it("saves with defaults, de-duplicates apps, and refuses a stale revision with 409 and the current copy", async () => {
    const agent = await newAgent("saver");
    const owner = client(world.members.o1Owner.token);
    const first = await owner.call(api.saveCampaign, {
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
    expect(first.campaign).toMatchObject({
      stage: "staging",
      revision: 1,
      published: true,
      confirmTransfers: false,
      apps: [{ appId: "end-call", version: "1.0.0" }],
      actions: [{ name: "schedule", duration: 30 }],
    });

    const second = await client(world.members.o1Admin.token).call(api.saveCampaign, {
      body: { agentId: agent.id, revision: 1, agentInstructions: "Second edit.", published: false },
    });
    expect(second.campaign).toMatchObject({
      revision: 2,
      published: false,
      agentInstructions: "Second edit.",
    });
    // Fields left out keep their values.
    expect(second.campaign.apps).toEqual([{ appId: "end-call", version: "1.0.0" }]);

    const unknownApp = await refusal(
      owner.call(api.saveCampaign, {
        body: { agentId: agent.id, agentInstructions: "x", enabledFunctions: { "nope@1": ["x"] } },
      }),
    );
    expect(unknownApp.body).toEqual({ success: false, message: "enabledFunctions: unknown app nope@1" });

    const stale = await expectRefusal(
      owner.call(api.saveCampaign, {
        body: { agentId: agent.id, revision: 1, agentInstructions: "Stale edit." },
      }),
      409,
    );
    expect(stale.body).toMatchObject({
      success: false,
      message: "This agent was changed elsewhere. Review the newer version.",
      current: { revision: 2, agentInstructions: "Second edit." },
    });

    // A stale first save (revision 0 when a copy exists) is refused too; no revision means no check.
    await expectRefusal(
      owner.call(api.saveCampaign, {
        body: { agentId: agent.id, revision: 0, agentInstructions: "Stale edit." },
      }),
      409,
    );
    const unchecked = await owner.call(api.saveCampaign, {
      body: { agentId: agent.id, agentInstructions: "Old client." },
    });
    expect(unchecked.campaign.revision).toBe(3);
  });

  it("publishes staging to production and reverts staging from production", async () => {
    const agent = await newAgent("publisher");
    const owner = client(world.members.o1Owner.token, agent.id);
    await expectRefusal(owner.call(api.revertAgent, { body: {} }), 400);
    const empty = await refusal(owner.call(api.publishAgent, { body: {} }));
    expect(empty.body).toEqual({ success: false, message: "Please enter a prompt." });

    await owner.call(api.saveCampaign, { body: { agentInstructions: "Version A", published: false } });
    const stalePublish = await expectRefusal(owner.call(api.publishAgent, { body: { revision: 0 } }), 409);
    expect(stalePublish.body.current).toMatchObject({ agentInstructions: "Version A", revision: 1 });
    const published = await owner.call(api.publishAgent, { body: { revision: 1 } });
    expect(published.production).toMatchObject({ agentInstructions: "Version A", published: true });
    expect(published.staging).toMatchObject({ agentInstructions: "Version A", published: true });

    const edited = await owner.call(api.saveCampaign, {
      body: { agentInstructions: "Version B", published: false, revision: published.staging.revision },
    });
    const reverted = await owner.call(api.revertAgent, { body: {} });
    expect(reverted.staging).toMatchObject({ agentInstructions: "Version A", published: true });
    expect(reverted.staging.revision).toBeGreaterThan(edited.campaign.revision);
  });

  it("detaches an agent from its template in both copies", async () => {
    const agent = await newAgent("detach");
    const owner = client(world.members.o1Owner.token, agent.id);
    const missing = await refusal(
      owner.call(api.saveCampaign, { body: { agentInstructions: "Hi", templateId: 999999 } }),
    );
    expect(missing.body).toEqual({ success: false, message: "Template not found" });
    const foreignTemplate = await client(world.members.o2Owner.token).call(api.createTemplate, {
      body: { name: "O2 only" },
    });
    await expectRefusal(
      owner.call(api.saveCampaign, {
        body: { agentInstructions: "Hi", templateId: foreignTemplate.template.id },
      }),
      404,
    );
    const own = await client(world.members.o1Owner.token).call(api.createTemplate, {
      body: { name: "O1 base" },
    });
    const templateId = own.template.id;
    await owner.call(api.saveCampaign, { body: { agentInstructions: "Hi", templateId } });
    await owner.call(api.publishAgent, { body: {} });
    const res = await owner.call(api.detachAgentFromTemplate, { body: {} });
    expect(res.staging.templateId).toBeNull();
    expect(res.production?.templateId).toBeNull();
  });

  it("lets the reseller and partner above act, and refuses foreign callers without leaking", async () => {
    const agent = await newAgent("shared");
    for (const member of [world.members.r1Owner, world.members.p1Owner, world.members.superAdmin]) {
      await client(member.token, agent.id).call(api.getCampaigns);
    }
    await expectRefusal(client(world.members.o2Owner.token, agent.id).call(api.getCampaigns), 404);
    // An agentId outside the target's subtree: the same 404, nothing of A2 in the answer.
    const sideways = await expectRefusal(
      client(world.members.o1Owner.token).call(api.getCampaigns, {
        query: { agentId: world.accounts.A2.id },
      }),
      404,
    );
    expect(sideways.body).toEqual({ success: false, message: "Agent not found" });
    for (const mark of fingerprints(world.accounts.A2))
      expect(JSON.stringify(sideways.body)).not.toContain(mark);
    // On an organisation without agentId: which agent is meant must be said.
    await expectRefusal(client(world.members.o1Owner.token).call(api.getCampaigns), 400);
  });
});

describe("versions", () => {
  it("snapshots staging, lists, renames, replaces and restores (round trip)", async () => {
    const agent = await newAgent("versioned");
    const owner = client(world.members.o1Owner.token);
    const id = agent.id;
    await owner.call(api.saveCampaign, {
      body: { agentId: agent.id, agentInstructions: "Prompt one", actions: [{ name: "transfer" }] },
    });
    const made = await owner.call(api.createAgentVersion, { params: { id }, body: { title: "First" } });
    expect(made.version).toMatchObject({
      title: "First",
      source: "staging",
      snapshot: { agentInstructions: "Prompt one", actions: [{ name: "transfer" }] },
    });
    const versionId = made.version.id;

    const fromProduction = await refusal(
      owner.call(api.createAgentVersion, { params: { id }, body: { source: "production" } }),
    );
    expect(fromProduction.body).toEqual({
      success: false,
      message: "This agent has not been published yet.",
    });

    await owner.call(api.saveCampaign, { body: { agentId: agent.id, agentInstructions: "Prompt two" } });

    const listed = await owner.call(api.listAgentVersions, { params: { id } });
    expect(listed.versions).toHaveLength(1);
    expect(listed.versions[0]?.snapshot).toBeUndefined();
    const withData = await owner.call(api.listAgentVersions, {
      params: { id },
      query: { includeData: true },
    });
    expect(withData.versions[0]?.snapshot?.agentInstructions).toBe("Prompt one");

    const renamed = await owner.call(api.renameAgentVersion, {
      params: { id, versionId },
      body: { title: "Renamed" },
    });
    expect(renamed.version.title).toBe("Renamed");
    await expectRefusal(
      owner.call(api.renameAgentVersion, { params: { id, versionId }, body: { title: " " } }),
      400,
    );

    const restored = await owner.call(api.restoreAgentVersion, { params: { id, versionId }, body: {} });
    expect(restored.campaign).toMatchObject({
      stage: "staging",
      agentInstructions: "Prompt one",
      published: false,
      actions: [{ name: "transfer" }],
    });

    const replaced = await owner.call(api.replaceAgentVersion, {
      params: { id, versionId },
      body: { snapshot: { agentInstructions: "Replaced prompt" } },
    });
    expect(replaced.version.snapshot).toMatchObject({
      agentInstructions: "Replaced prompt",
      actions: [{ name: "transfer" }],
    });
    const toProduction = await owner.call(api.restoreAgentVersion, {
      params: { id, versionId },
      body: { target: "production" },
    });
    expect(toProduction.campaign).toMatchObject({
      stage: "production",
      agentInstructions: "Replaced prompt",
    });
  });

  it("answers 404 for a version of another agent and for a foreign agent id", async () => {
    const one = await newAgent("v-one");
    const two = await newAgent("v-two");
    const owner = client(world.members.o1Owner.token);
    const made = await owner.call(api.createAgentVersion, { params: { id: one.id }, body: {} });
    expect(made.version.title).toBe("Version 1");
    await expectRefusal(
      owner.call(api.restoreAgentVersion, { params: { id: two.id, versionId: made.version.id }, body: {} }),
      404,
      "Version not found",
    );
    await expectRefusal(owner.call(api.listAgentVersions, { params: { id: world.accounts.A2.id } }), 404);
  });
});
