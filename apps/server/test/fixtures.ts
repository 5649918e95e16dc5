import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AccountRow } from "../src/access/access.ts";
import { accounts, memberships, users } from "../src/db/schema/index.ts";
import { createAccountsRepository } from "../src/modules/accounts/accounts.repository.ts";
import { issueSessionToken } from "../src/modules/auth/sessions.ts";
import { startSeededSubscription } from "../src/modules/billing/seeded-subscription.ts";
import { apiCaller } from "./api-call.ts";

export type Member = { userId: number; token: string; email: string };

/**
 * Two partner trees and one stand-alone organisation:
 *   P1 > R1 > O1 (owner, admin) > A1      P2 > R2 > O2 (owner) > A2      U (owner)
 * plus a super admin. Names and e-mails are unique per call so files can build several.
 */
export async function buildHierarchy(app: FastifyInstance, tag = Math.random().toString(36).slice(2, 8)) {
  const db = app.context.database.db;
  const repo = createAccountsRepository(db);
  const member = async (
    account: AccountRow | null,
    name: string,
    role: "owner" | "admin" = "owner",
    superAdmin = false,
  ) => {
    const email = `${name}-${tag}@example.com`;
    const [user] = await db.insert(users).values({ email, fullName: name, superAdmin }).returning();
    if (!user) throw new Error("fixture user");
    if (account) await db.insert(memberships).values({ userId: user.id, accountId: account.id, role });
    return {
      userId: user.id,
      email,
      token: await issueSessionToken(db, user.id, account?.id ?? null),
    } as Member;
  };
  const account = (parent: AccountRow | null, accountType: AccountRow["accountType"], name: string) =>
    repo.insertAccount(parent, {
      accountType,
      usernameFrom: `${name}-${tag}`,
      email: `${name}-${tag}@tenant.example`,
      details: { displayName: `${name} ${tag} Display` },
    });

  const P1 = await account(null, "partner", "p1");
  const R1 = await account(P1, "reseller", "r1");
  const O1 = await account(R1, "organization", "o1");
  const A1 = await account(O1, "agent", "a1");
  const P2 = await account(null, "partner", "p2");
  const R2 = await account(P2, "reseller", "r2");
  const O2 = await account(R2, "organization", "o2");
  const A2 = await account(O2, "agent", "a2");
  const U = await account(null, "organization", "u");
  const HQ = await account(null, "partner", "hq");

  return {
    tag,
    accounts: { P1, R1, O1, A1, P2, R2, O2, A2, U },
    members: {
      p1Owner: await member(P1, "p1owner"),
      r1Owner: await member(R1, "r1owner"),
      o1Owner: await member(O1, "o1owner"),
      o1Admin: await member(O1, "o1admin", "admin"),
      o2Owner: await member(O2, "o2owner"),
      uOwner: await member(U, "uowner"),
      superAdmin: await member(HQ, "super", "owner", true),
    },
  };
}

type AccountColumns = Partial<typeof accounts.$inferInsert>;

/**
 * Puts an organisation on a plan (an active monthly subscription from now, premium as the plan says), as
 * a paid checkout would: for tests that need what the plan offers, phone numbers above all (Pro includes
 * one, Business five). Subscribing through the checkout is billing.test.ts's.
 */
export async function putOnPlan(app: FastifyInstance, orgId: number, planName: "Pro" | "Business" = "Pro") {
  return startSeededSubscription(app.context.database.db, orgId, { planName });
}

/**
 * An agent that answers text messages: SMS switched on for organisation O1, `number` assigned to its agent
 * A1, and A1's campaign saved with `instructions` (and `greeting`) and published, as O1's owner. `org` and
 * `agent` set more columns of O1 and A1.
 */
export async function prepareSmsAgent(
  app: FastifyInstance,
  world: Awaited<ReturnType<typeof buildHierarchy>>,
  options: {
    number: string;
    instructions?: string;
    greeting?: string;
    org?: AccountColumns;
    agent?: AccountColumns;
  },
) {
  const db = app.context.database.db;
  const call = apiCaller(app);
  const token = world.members.o1Owner.token;
  const { O1, A1 } = world.accounts;
  await db
    .update(accounts)
    .set({ ...options.org, smsEnabled: true })
    .where(eq(accounts.id, O1.id));
  await db
    .update(accounts)
    .set({ ...options.agent, switchboardPhoneNumber: options.number })
    .where(eq(accounts.id, A1.id));
  const post = async (path: string, body: object) => {
    const res = await call("POST", path, { token, body });
    if (res.status !== 200) {
      throw new Error(`prepareSmsAgent: POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
    }
  };
  await post("/api/v2/campaign", {
    agentId: A1.id,
    agentInstructions: options.instructions ?? "Opening hours: Mon-Fri 8am-5pm.",
    ...(options.greeting === undefined ? {} : { greeting: options.greeting }),
  });
  await post("/api/v2/agent/publish", { agentId: A1.id });
}

/** Everything in an account row that would identify it in an answer. */
export function fingerprints(account: AccountRow): string[] {
  return [
    account.username,
    account.email ?? "",
    String((account.details as Record<string, unknown>).displayName ?? ""),
  ].filter((value) => value.length > 0);
}
