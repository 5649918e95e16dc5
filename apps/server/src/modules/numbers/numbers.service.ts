import { randomUUID } from "node:crypto";
import {
  type AvailableNumber,
  NUMBER_MESSAGES,
  type NumberCountry,
  type PhoneNumber,
  phraseToDigits,
} from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import { type Access, type AccountRow, isWithin } from "../../access/access.ts";
import { hashCode, newCode, sameHash } from "../../access/secrets.ts";
import { ApiError, badRequest, conflict, notFound } from "../../api-error.ts";
import type { ProductItem } from "../../db/schema/index.ts";
import type { KeyedGate } from "../../http/keyed-gate.ts";
import type { NumberProvider, NumberRouting, NumberSearch } from "../../providers/numbers/number-provider.ts";
import { isSandboxNumber, sandboxLocationOf } from "../../providers/numbers/sandbox-numbers.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import { agentNameOf } from "../accounts/index.ts";
import type { AgentsService } from "../agents/index.ts";
import { InsufficientFundsError, type LedgerService } from "../ledger/index.ts";
import { agentForNumber } from "./number-owner.ts";
import { type NumberTerms, releaseDateOf, termsForNumber } from "./number-plan.ts";
import type { NumbersRepository, PhoneNumberRow } from "./numbers.repository.ts";
import { countryOfNumber } from "./outbound-calls.ts";

/** How long a caller-ID code may be typed back, and how many tries it allows. */
const CODE_TTL_MS = 10 * 60 * 1000;
const CODE_ATTEMPTS = 5;

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** A plan's refusal as the error the caller sees (what to do: upgrade). */
function refusal(terms: Extract<NumberTerms, { allowed: false }>): ApiError {
  return new ApiError(
    403,
    terms.reason === "limit" ? NUMBER_MESSAGES.planLimit : NUMBER_MESSAGES.planNoNumbers,
  );
}

/** A number's monthly price under the plan, its renewal date and its unpaid renewal, as the list shows them. */
function billingOf(row: PhoneNumberRow, terms: NumberTerms): NonNullable<PhoneNumber["billing"]> {
  return {
    monthlyPriceCents: terms.allowed ? terms.monthlyCents : null,
    renewsAt: row.paidThrough.getTime(),
    pastDue: row.pastDueSince
      ? {
          since: row.pastDueSince.getTime(),
          amountCents: row.pastDueCents ?? 0,
          releaseAt: releaseDateOf(row.pastDueSince).getTime(),
        }
      : null,
  };
}

export function organizationIdOf(target: AccountRow): number {
  if (target.accountType === "organization") return target.id;
  if (target.accountType === "agent" && target.organizationId) return target.organizationId;
  throw badRequest(NUMBER_MESSAGES.noOrganization);
}

export function toPhoneNumber(
  row: PhoneNumberRow,
  agent?: { details: Record<string, unknown> | null; username: string | null },
): PhoneNumber {
  return {
    id: row.id,
    number: row.number,
    country: row.country,
    region: row.region,
    locality: row.locality,
    kind: row.kind,
    provider: row.provider,
    byoMethod: row.byoMethod ?? null,
    carrier: row.carrier ?? null,
    agentId: row.agentAccountId,
    agentName: agent ? agentNameOf(agent.details, agent.username) : null,
    forwardingVerifiedAt: row.forwardingVerifiedAt?.getTime() ?? null,
    capabilities: row.capabilities,
    createdAt: row.createdAt.getTime(),
  };
}

type Deps = {
  repo: NumbersRepository;
  provider: NumberProvider;
  agents: AgentsService;
  loadAccount: (id: number) => Promise<AccountRow | null>;
  routing: (number: string) => NumberRouting;
  secretKey: string;
  tts: TtsProvider;
  log: FastifyBaseLogger;
  /** The plan the organisation is on (its subscription's, else the free plan), or null. */
  planOf: (orgId: number) => Promise<{ name: string; productItems: Record<string, ProductItem> } | null>;
  /** Numbers beyond what the plan includes are charged to the wallet. */
  ledger: LedgerService;
  /** An organisation's money movements one at a time (load-limits.ts). */
  money: KeyedGate;
  /** Places the caller-ID verification call through the organisation's trunk when it has one. */
  speakToNumber?: (orgId: number, number: string, text: string) => Promise<boolean>;
};

export function createNumbersService(deps: Deps) {
  const { repo, provider } = deps;

  async function withAgent(row: PhoneNumberRow): Promise<PhoneNumber> {
    const agent = row.agentAccountId ? await deps.loadAccount(row.agentAccountId) : null;
    return toPhoneNumber(row, agent ? { details: agent.details, username: agent.username } : undefined);
  }

  /** The terms of the organisation's next number under its plan. */
  async function nextNumberTerms(orgId: number): Promise<NumberTerms> {
    return termsForNumber(await deps.planOf(orgId), await repo.countHeld(orgId));
  }

  /** Available numbers, priced as the organisation would pay for its next one (refused when its plan has none). */
  async function search(access: Access, query: NumberSearch): Promise<AvailableNumber[]> {
    const terms = await nextNumberTerms(organizationIdOf(access.target));
    if (!terms.allowed) throw refusal(terms);
    let found: AvailableNumber[];
    try {
      found = await provider.search(query);
    } catch (error) {
      deps.log.warn({ err: error }, "number search failed");
      throw new ApiError(502, NUMBER_MESSAGES.providerFailed);
    }
    return found.map((n) => ({ ...n, monthlyPriceCents: terms.monthlyCents }));
  }

  type NewRow = NonNullable<Parameters<NumbersRepository["assign"]>[3]>;

  /**
   * A number new to the organisation: allowed by its plan's `number` tiers, its month charged to the wallet
   * (wallet -> number revenue) in the ledger transaction that stores it. Nothing is kept when it is refused
   * or not paid: a number bought from the provider goes back.
   */
  async function provision(
    orgId: number,
    agentId: number,
    number: string,
    make: () => Promise<NewRow>,
  ): Promise<PhoneNumberRow> {
    return deps.money.run(orgId, async () => {
      const terms = await nextNumberTerms(orgId);
      if (!terms.allowed) throw refusal(terms);
      const price = terms.monthlyCents;
      if (price > 0 && (await deps.ledger.balances(orgId)).usd.available < price)
        throw new ApiError(402, NUMBER_MESSAGES.walletShort);
      const created = await make();
      if (price === 0) return repo.assign(orgId, agentId, number, created);
      let stored = null as PhoneNumberRow | null;
      try {
        await deps.ledger.post({
          idempotencyKey: `number:${orgId}:${number}:${randomUUID()}`,
          kind: "number",
          ownerAccountId: orgId,
          description: `Phone number ${number}, first month (${terms.planName} plan, number ${terms.ordinal}: ${dollars(price)} a month)`,
          metadata: { number, planName: terms.planName, ordinal: terms.ordinal, monthlyCents: price },
          postings: [
            { account: deps.ledger.wallet(orgId), amount: -price },
            { account: deps.ledger.platform("revenue:numbers"), amount: price },
          ],
          within: async (tx) => {
            stored = await repo.assign(orgId, agentId, number, created, tx);
          },
        });
      } catch (error) {
        if (created.kind === "marketplace" && created.provider === provider.kind)
          await provider
            .release(number, created.providerId ?? null)
            .catch((err: unknown) => deps.log.warn({ err, number }, "unpaid number not released"));
        if (error instanceof InsufficientFundsError) throw new ApiError(402, NUMBER_MESSAGES.walletShort);
        throw error;
      }
      if (!stored) throw new Error("number not stored");
      return stored;
    });
  }

  async function assignRow(
    access: Access,
    agentId: number | undefined,
    number: string,
    make: () => Promise<NewRow>,
    byo?: { byoMethod: "forwarding" | "sip"; carrier: string | null },
  ) {
    const orgId = organizationIdOf(access.target);
    const { account: agent } = await deps.agents.resolveAgent(access, agentId, "canSelectNumber");
    if (agent.organizationId !== orgId) throw notFound(NUMBER_MESSAGES.agentRequired);
    const existing = await repo.findLive(number);
    if (existing && existing.orgId !== orgId) throw conflict(NUMBER_MESSAGES.notAvailable);
    const row = existing
      ? await repo.assign(
          orgId,
          agent.id,
          number,
          byo
            ? { ...byo, kind: existing.kind, provider: existing.provider, country: existing.country }
            : null,
        )
      : await provision(orgId, agent.id, number, make);
    return { success: true as const, phoneNumber: await withAgent(row), switchboardPhoneNumber: number };
  }

  return {
    search,
    async list(access: Access) {
      const orgId = organizationIdOf(access.target);
      const rows = await repo.listLive(orgId);
      const plan = await deps.planOf(orgId);
      // The plan's included numbers are the oldest ones (as the renewals count them).
      const ordinals = new Map(
        rows
          .map(({ row }) => row)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
          .map((row, index) => [row.id, index + 1]),
      );
      return {
        success: true as const,
        numbers: rows.map(({ row, agentDetails, agentUsername }) => ({
          ...toPhoneNumber(
            row,
            row.agentAccountId ? { details: agentDetails, username: agentUsername } : undefined,
          ),
          billing: billingOf(row, termsForNumber(plan, (ordinals.get(row.id) ?? 1) - 1)),
        })),
      };
    },

    async assign(access: Access, body: { number: string; country?: NumberCountry; agentId?: number }) {
      return assignRow(access, body.agentId, body.number, async () => {
        let bought: { number: string; providerId: string | null };
        try {
          bought = await provider.purchase(body.number, deps.routing(body.number));
        } catch (error) {
          deps.log.warn({ err: error, number: body.number }, "number purchase failed");
          throw new ApiError(
            provider.kind === "sandbox" ? 409 : 502,
            provider.kind === "sandbox" ? NUMBER_MESSAGES.notAvailable : NUMBER_MESSAGES.providerFailed,
          );
        }
        const place = sandboxLocationOf(body.number);
        return {
          kind: "marketplace",
          provider: provider.kind,
          providerId: bought.providerId,
          country: body.country ?? countryOfNumber(body.number) ?? "US",
          region: place?.region ?? "",
          locality: place?.locality ?? "",
        };
      });
    },

    async assignByo(
      access: Access,
      body: { number: string; method: "forwarding" | "sip"; carrier?: string; agentId?: number },
    ) {
      const existing = await repo.findLive(body.number);
      if (existing && existing.kind !== "byo" && existing.orgId === organizationIdOf(access.target))
        throw conflict(NUMBER_MESSAGES.alreadyAssigned);
      const byo = { byoMethod: body.method, carrier: body.carrier ?? null };
      return assignRow(
        access,
        body.agentId,
        body.number,
        async () => {
          const place = sandboxLocationOf(body.number);
          return {
            kind: "byo",
            provider: "byo",
            providerId: null,
            country: countryOfNumber(body.number) ?? "US",
            region: place?.region ?? "",
            locality: place?.locality ?? "",
            ...byo,
          };
        },
        byo,
      );
    },

    async release(access: Access, body: { number: string }) {
      const orgId = organizationIdOf(access.target);
      const row = await repo.findLive(body.number);
      if (!row || row.orgId !== orgId) throw notFound(NUMBER_MESSAGES.notFound);
      if (access.target.accountType === "agent" && row.agentAccountId !== access.target.id)
        throw notFound(NUMBER_MESSAGES.notFound);
      if (row.kind === "marketplace") {
        try {
          if (row.provider === provider.kind) await provider.release(row.number, row.providerId);
        } catch (error) {
          deps.log.warn({ err: error, number: row.number }, "number release failed");
          throw new ApiError(502, NUMBER_MESSAGES.providerFailed);
        }
      }
      await repo.release(row);
      return { success: true as const, released: row.number };
    },

    /** The agent a number reaches (inbound calls over SIP, the sandbox phone), or null. */
    agentForNumber(user: string): Promise<{ agentAccountId: number; orgId: number } | null> {
      return agentForNumber(repo, user);
    },

    /**
     * The forwarding check: the sandbox carrier calls the business number; a bring-your-own number set up to
     * forward (its row, method forwarding) arrives at our endpoint as a call to that number, which routes to
     * its agent. Confirmed when the call reached the agent the number is assigned to.
     */
    async verifyForwarding(access: Access, body: { number: string; agentId?: number }) {
      const orgId = organizationIdOf(access.target);
      const row = await repo.findLive(body.number);
      const callId = `VF${Date.now().toString(36)}`;
      if (!row || row.orgId !== orgId) throw notFound(NUMBER_MESSAGES.notFound);
      const routed = await this.agentForNumber(row.number);
      const expected = body.agentId ?? row.agentAccountId;
      const arrived = routed !== null && routed.orgId === orgId && routed.agentAccountId === expected;
      if (!arrived)
        return {
          success: true as const,
          verified: false,
          message: NUMBER_MESSAGES.forwardingNotArrived,
          callId,
          arrivedAt: null,
        };
      await repo.markForwardingVerified(row.id);
      const agent = await deps.loadAccount(routed.agentAccountId);
      return {
        success: true as const,
        verified: true,
        message: `The test call to ${row.number} arrived at ${agentNameOf(agent?.details ?? null, agent?.username ?? null) ?? "your agent"}.`,
        callId,
        arrivedAt: agent?.switchboardPhoneNumber ?? row.number,
      };
    },

    async validateVerifiedNumber(
      access: Access,
      body: { phoneNumber: string; listen?: boolean; verificationCode?: string },
    ) {
      const orgId = organizationIdOf(access.target);
      const number = body.phoneNumber;
      if (body.verificationCode) {
        const row = await repo.findVerification(orgId, number);
        if (row?.verifiedAt && !row.codeHash)
          return { success: true as const, status: "verified" as const, callId: null, spokenText: null };
        if (!row?.codeHash || !row.expiresAt) throw badRequest(NUMBER_MESSAGES.noCallInProgress);
        if (row.expiresAt.getTime() < Date.now() || row.attempts >= CODE_ATTEMPTS)
          throw badRequest(NUMBER_MESSAGES.codeExpired);
        await repo.countAttempt(row.id);
        if (
          !sameHash(
            row.codeHash,
            hashCode(deps.secretKey, `callerid:${orgId}:${number}`, body.verificationCode),
          )
        )
          throw badRequest(NUMBER_MESSAGES.codeWrong);
        await repo.markVerified(row.id);
        return { success: true as const, status: "verified" as const, callId: null, spokenText: null };
      }
      if (!body.listen) throw badRequest(NUMBER_MESSAGES.noCallInProgress);
      const code = newCode();
      await repo.startVerification(
        orgId,
        number,
        hashCode(deps.secretKey, `callerid:${orgId}:${number}`, code),
        new Date(Date.now() + CODE_TTL_MS),
      );
      const spoken = `Your Switchboard verification code is ${code.split("").join(", ")}. Again, ${code.split("").join(", ")}.`;
      const callId = `CV${Date.now().toString(36)}`;
      // A trunk of the organisation's carries the call to the phone; otherwise the sandbox carrier answers
      // it and the developer reads what it said.
      const carried = deps.speakToNumber
        ? await deps.speakToNumber(orgId, number, spoken).catch(() => false)
        : false;
      if (!carried) {
        // The sandbox carrier's call: the code is synthesised as it would be spoken (proving speech works).
        for await (const _chunk of deps.tts.synthesize(spoken)) {
          // drain
        }
      }
      return {
        success: true as const,
        status: "calling" as const,
        callId,
        spokenText: carried ? null : spoken,
      };
    },

    async isVerifiedCallerId(orgId: number, number: string) {
      const row = await repo.findVerification(orgId, number);
      return Boolean(row?.verifiedAt);
    },

    /** The sandbox phone may call the organisation's own numbers. */
    async numberOfOrg(access: Access, number: string) {
      const row = await repo.findLive(number);
      if (!row?.agentAccountId) throw notFound(NUMBER_MESSAGES.notFound);
      const org = await deps.loadAccount(row.orgId);
      const reachable =
        access.target.accountType === "agent"
          ? access.target.organizationId === row.orgId
          : org !== null && isWithin(access.target, org);
      if (!reachable) throw notFound(NUMBER_MESSAGES.notFound);
      return row;
    },

    isSandboxNumber,
    phraseToDigits,
  };
}

export type NumbersService = ReturnType<typeof createNumbersService>;
