import { count, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  accounts,
  agentConfigs,
  agentTemplates,
  domains,
  installedApps,
  memberships,
  usageDebits,
  users,
} from "../db/schema/index.ts";
import { createAccountsRepository } from "../modules/accounts/accounts.repository.ts";
import { PLATFORM_PARTNER_NAME, recordPlatformPartner } from "../modules/accounts/platform-partner.ts";
import { startSeededSubscription } from "../modules/billing/seeded-subscription.ts";
import { insertGeneratedLogs } from "../modules/logs/insert-generated-logs.ts";
import { seedDemoInbox } from "./demo-inbox.ts";
import { DEMO_TEMPLATES } from "./demo-templates.ts";

export const DEMO_USERS = {
  superAdmin: "admin@switchboard.local",
  partner: "partner@acmevoice.example",
  reseller: "reseller@northwind.example",
  owner: "owner@bluebird.example",
  admin: "admin@bluebird.example",
} as const;

/** Call log rows the demo organisation starts with. */
export const DEMO_LOG_ROWS = 3000;
/** The demo agent the demo's simulated callers ring (modules/voice/demo-calls.ts). */
export const DEMO_CALLED_AGENT = "bluebird-front-desk";

/** The demo partner's white-label host: open http://voice.acme.localhost:3000/app to see it applied. */
export const DEMO_WHITE_LABEL_HOST = "voice.acme.localhost";

/**
 * A demo hierarchy for a new embedded database: a super admin, a partner, a reseller, an organisation with
 * an owner and an admin, and two agent accounts; the partner has a white-label domain. Returns false when
 * the database already holds accounts.
 */
/** Three months before the day 20 days ago (the day of month clamped to shorter months). */
export function demoOrganizationCreatedAt(now: number): Date {
  const anchor = new Date(now - 20 * 24 * 3600_000);
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() - 3;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(year, month, Math.min(anchor.getUTCDate(), last), anchor.getUTCHours(), anchor.getUTCMinutes()),
  );
}

export async function seedDemoData(db: Database): Promise<boolean> {
  const [existing] = await db.select({ value: count() }).from(accounts);
  if ((existing?.value ?? 0) > 0) return false;
  const repo = createAccountsRepository(db);
  const user = async (email: string, fullName: string, superAdmin = false) => {
    const [row] = await db
      .insert(users)
      .values({ email, fullName, superAdmin, emailVerifiedAt: new Date() })
      .returning();
    if (!row) throw new Error("seed: user insert failed");
    return row.id;
  };

  const superAdminId = await user(DEMO_USERS.superAdmin, "Sam Super", true);
  const platform = await repo.insertAccount(
    null,
    { accountType: "partner", usernameFrom: "switchboard", details: { partnerName: PLATFORM_PARTNER_NAME } },
    { userId: superAdminId },
  );
  // Sign-ups on the main host join the super admin's own partner.
  await recordPlatformPartner(db, platform.id);
  const partner = await repo.insertAccount(
    null,
    {
      accountType: "partner",
      usernameFrom: "acme-voice",
      email: DEMO_USERS.partner,
      details: { partnerName: "Acme Voice" },
    },
    { userId: await user(DEMO_USERS.partner, "Pat Partner") },
  );
  await db.insert(domains).values({
    accountId: partner.id,
    host: DEMO_WHITE_LABEL_HOST,
    name: "Acme Voice",
    settings: {
      supportUrl: "https://support.acmevoice.example",
      smsMessaging: true,
      allowEmbeds: true,
      appScripts: [],
    },
    isDefault: true,
  });
  const reseller = await repo.insertAccount(
    partner,
    {
      accountType: "reseller",
      usernameFrom: "northwind",
      email: DEMO_USERS.reseller,
      details: { resellerName: "Northwind Resellers" },
    },
    { userId: await user(DEMO_USERS.reseller, "Rae Reseller") },
  );
  const organization = await repo.insertAccount(
    reseller,
    {
      accountType: "organization",
      usernameFrom: "bluebird-dental",
      email: DEMO_USERS.owner,
      details: { orgName: "Bluebird Dental" },
      // The demo organisation already has its agents: its owner has been through onboarding. The clinic is
      // in Los Angeles, where its agents book: its times read there in any browser.
      settings: { onboarding: { onboardingComplete: true }, timeZone: "America/Los_Angeles" },
      premium: true,
      smsEnabled: true,
    },
    { userId: await user(DEMO_USERS.owner, "Olive Owner") },
  );
  await db.insert(memberships).values({
    userId: await user(DEMO_USERS.admin, "Adam Admin"),
    accountId: organization.id,
    role: "admin",
  });
  const agents = [];
  for (const [username, agentName] of [
    ["bluebird-front-desk", "Front Desk"],
    ["bluebird-after-hours", "After Hours"],
  ] as const) {
    agents.push(
      await repo.insertAccount(organization, {
        accountType: "agent",
        usernameFrom: username,
        details: { agentName },
      }),
    );
  }
  // Its generated history is never charged: usage debits start now. Recorded before the history is written,
  // so the usage-debit job, which may run meanwhile, never sees history without it.
  await db
    .insert(usageDebits)
    .values({ orgId: organization.id, chargeFrom: new Date() })
    .onConflictDoUpdate({ target: usageDebits.orgId, set: { chargeFrom: new Date() } });
  await seedDemoAgents(db, organization.id, agents[0]?.id, agents[1]?.id);
  if (agents[0]) await seedDemoInbox(db, organization.id, agents[0].id);
  // Three months of calls, so the dashboard, the call logs and the usage statistics have something to show;
  // each with its conversation and transcript, so every row's Transcript and Call stats open.
  await insertGeneratedLogs(db, {
    orgId: organization.id,
    accountName: "Bluebird Dental",
    agentIds: agents.map((agent) => agent.id),
    count: DEMO_LOG_ROWS,
    usage: true,
    conversations: true,
  });
  // The organisation has been a customer for as long as its calls go back: created three months ago, on the
  // day of the month that puts its current billing period 20 days in, so its usage page has a period's worth.
  const createdAt = demoOrganizationCreatedAt(Date.now());
  await db.update(accounts).set({ createdAt }).where(eq(accounts.id, organization.id));
  // On Pro since then (premium; its plan includes the Front Desk's phone number).
  await startSeededSubscription(db, organization.id, { planName: "Pro", since: createdAt });
  return true;
}

/**
 * The built-in templates, the apps Bluebird Dental installed, and the Front Desk agent made from the dental
 * template (published), so the agent editor and the template gallery have real content at once.
 */
export async function seedDemoAgents(
  db: Database,
  organizationId: number,
  frontDeskId: number | undefined,
  afterHoursId?: number,
) {
  const templates = await db
    .insert(agentTemplates)
    .values(
      DEMO_TEMPLATES.map((template) => ({
        ownerAccountId: null,
        name: template.name,
        description: template.description,
        body: template.body,
      })),
    )
    .returning();
  for (const appId of ["schedule", "call-transfer", "end-call", "send-sms"]) {
    await db
      .insert(installedApps)
      .values({ accountId: organizationId, orgId: organizationId, appId, appVersion: "1.0.0", data: {} })
      .onConflictDoNothing();
  }
  if (afterHoursId !== undefined) {
    // A full agent of its own (no template): answers evenings and weekends, passes emergencies on.
    const config = {
      agentInstructions: [
        "You answer Bluebird Dental's phone outside opening hours (Mon-Fri 8am-5pm).",
        "Address: 12 Harbour Street, Portland. Parking: free parking behind the building.",
        "For severe pain, swelling or bleeding that will not stop, transfer the call to the on-call dentist at +15035550111.",
        "Otherwise offer to book the first free appointment on the next working day.",
        "",
        "Q: Is anyone in the office now?",
        "A: The office is closed now; it opens again at 8am on the next working day.",
        "Q: Where is the nearest emergency room?",
        "A: Portland General's emergency room at 400 Harbour Road is open around the clock.",
      ].join("\n"),
      greeting: "You've reached Bluebird Dental after hours. How can I help?",
      published: true,
      confirmTransfers: true,
      apps: [
        { appId: "schedule", version: "1.0.0" },
        { appId: "call-transfer", version: "1.0.0" },
        { appId: "end-call", version: "1.0.0" },
      ],
      enabledFunctions: {
        "schedule@1.0.0": ["checkAvailability", "bookAppointment"],
        "call-transfer@1.0.0": ["transferCall"],
        "end-call@1.0.0": ["endCall"],
      },
      actions: [{ name: "schedule", durationMinutes: 30 }, { name: "transfer" }],
      templateId: null,
      timezone: "America/Los_Angeles",
      language: "en-US",
      variables: {},
    };
    for (const stage of ["staging", "production"] as const) {
      await db
        .insert(agentConfigs)
        .values({ orgId: organizationId, agentAccountId: afterHoursId, stage, config, revision: 1 });
    }
  }
  const dental = templates[0];
  if (!dental || frontDeskId === undefined) return;
  const { templateFields: _fields, templateIntegrations: _integrations, ...content } = dental.body;
  const config = {
    ...content,
    published: true,
    templateId: dental.id,
    timezone: "America/Los_Angeles",
    language: "en-US",
    variables: {
      clinicName: "Bluebird Dental",
      address: "12 Harbour Street, Portland",
      hours: "Mon-Fri 8am-5pm",
      insurance: "Most major PPO plans",
      transferNumber: "+15035550100",
      // Bluebird's own answers (the template has none of its own).
      faq: [
        "Parking: free parking behind the building.",
        "New patients are welcome: please arrive 10 minutes early to fill in a short form.",
        "Q: Do you see children?",
        "A: Yes, we see children from age 3, and their first visit is free.",
        "Q: How much is a cleaning?",
        "A: A cleaning is $120 without insurance; most PPO plans cover two cleanings a year.",
        "Q: Do you offer teeth whitening?",
        "A: Yes, in-office whitening takes about an hour and costs $350.",
        "Q: What should I do in a dental emergency?",
        "A: Call us right away: we keep time free every day for emergencies, and urgent calls go to +15035550100.",
      ].join("\n"),
    },
  };
  for (const stage of ["staging", "production"] as const) {
    await db
      .insert(agentConfigs)
      .values({ orgId: organizationId, agentAccountId: frontDeskId, stage, config, revision: 1 });
  }
}
