import { AUTH_MESSAGES, normaliseHost, type Session, SIGNIN_SENT_MESSAGES } from "@switchboard/api";
import { isValidTimeZone } from "@switchboard/core";
import type { AccountRow, Caller } from "../../access/access.ts";
import { hashCode, hashToken, newCode, newToken, sameHash } from "../../access/secrets.ts";
import { ApiError } from "../../api-error.ts";
import type { EmailProvider } from "../../providers/email/email-provider.ts";
import type { SmsProvider } from "../../providers/sms/sms-provider.ts";
import {
  type AccountsRepository,
  insertAccountIn,
  platformPartner,
  storedPhoneNumber,
} from "../accounts/index.ts";
import { createDomainsRepository, toProfile } from "../domains/index.ts";
import { recordReferral } from "../referrals/index.ts";
import { type AuthRepository, type CodePurpose, createAuthRepository } from "./auth.repository.ts";
import { issueSessionToken } from "./sessions.ts";

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_WRONG_TRIES = 5;
export const RATE_WINDOW_MS = 15 * 60_000;
export const CODES_PER_ADDRESS = 5;
/** Codes one client network may ask for per RATE_WINDOW_MS, unless SIGN_IN_CODES_PER_NETWORK says otherwise. */
export const CODES_PER_IP = 20;
export const ONE_TIME_TTL_MS = 5 * 60_000;
/** Anonymous sessions one address may start per RATE_WINDOW_MS. */
export const ANONYMOUS_SESSIONS_PER_IP = 20;
/**
 * An anonymous session that sign-up has not turned into an account by then expires, and its user is
 * deleted (a few at each new allocation, so no job is needed).
 */
export const ANONYMOUS_SESSION_TTL_MS = 24 * 60 * 60_000;
const ANONYMOUS_PRUNE_BATCH = 100;

/** Whose name a code message carries: the white-label host's partner, or the product on the main host. */
export type Brand = { name: string; supportUrl: string | null; partner: AccountRow | null };
export const MAIN_BRAND: Brand = { name: "Switchboard", supportUrl: null, partner: null };

type Deps = {
  repo: AuthRepository;
  accounts: AccountsRepository;
  email: EmailProvider;
  sms: SmsProvider;
  secretKey: string;
  loadAccount: (id: number) => Promise<AccountRow | null>;
  /** Codes one network may ask for per RATE_WINDOW_MS (CODES_PER_IP unless configured). */
  codesPerNetwork?: number;
};

export function createAuthService(deps: Deps) {
  const { repo } = deps;
  const domains = createDomainsRepository(repo.db);

  /** The brand of the host a request came to: a partner's white-label host names the partner. */
  async function brandOf(host: string | undefined): Promise<Brand> {
    const found = host ? await domains.lookup(normaliseHost(host)) : null;
    if (!found) return MAIN_BRAND;
    const profile = toProfile(found.domain, found.partner);
    return { name: profile.name, supportUrl: profile.settings.supportUrl, partner: found.partner };
  }

  async function sendCode(input: {
    purpose: CodePurpose;
    channel: "email" | "sms";
    address: string;
    /** The client's network (clientNetworkKey): codes are limited per address and per network. */
    network: string;
    userId?: number;
    payload?: Record<string, unknown>;
    brand: Brand;
    /**
     * false: no account can use the code (a sign-in for an unknown address). The request is still counted
     * as a code, used up at once and never sent, so it answers and limits as any other.
     */
    deliver?: false;
  }): Promise<void> {
    const since = new Date(Date.now() - RATE_WINDOW_MS);
    if ((await repo.countRecentCodes({ address: input.address }, since)) >= CODES_PER_ADDRESS) {
      throw new ApiError(429, AUTH_MESSAGES.addressLimited);
    }
    if (
      (await repo.countRecentCodes({ ip: input.network }, since)) >= (deps.codesPerNetwork ?? CODES_PER_IP)
    ) {
      throw new ApiError(429, AUTH_MESSAGES.ipLimited);
    }
    const code = newCode();
    await repo.insertCode({
      purpose: input.purpose,
      address: input.address,
      userId: input.userId ?? null,
      codeHash: hashCode(deps.secretKey, input.address, code),
      payload: input.payload ?? {},
      requesterIp: input.network,
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
      ...(input.deliver === false ? { consumedAt: new Date() } : {}),
    });
    if (input.deliver === false) return;
    // On a partner's white-label host the message names the partner, never the product.
    const { brand } = input;
    const help = brand.supportUrl ? ` Help: ${brand.supportUrl}` : "";
    const text = `Your ${brand.name} code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this message.${help}`;
    if (input.channel === "email") {
      await deps.email.send({
        to: input.address,
        subject: `Your ${brand.name} code: ${code}`,
        text,
        fromName: brand.name,
      });
    } else {
      await deps.sms.send({ to: input.address, body: text });
    }
  }

  /**
   * Finds the open code and compares it (at most five wrong tries), without using it up: the caller
   * consumes it, possibly in the transaction that does what the code allows.
   */
  async function matchCode(by: { address?: string; userId?: number }, purposes: CodePurpose[], code: string) {
    const open = await repo.findOpenCode(by, purposes);
    if (!open) throw new ApiError(400, AUTH_MESSAGES.codeRejected);
    if (open.attempts >= MAX_WRONG_TRIES) throw new ApiError(400, AUTH_MESSAGES.tooManyTries);
    if (!sameHash(open.codeHash, hashCode(deps.secretKey, open.address, code))) {
      const counted = await repo.countWrongTry(open.id, MAX_WRONG_TRIES);
      throw new ApiError(400, counted ? AUTH_MESSAGES.codeRejected : AUTH_MESSAGES.tooManyTries);
    }
    return open;
  }

  /** Checks a code: single use, expiring, at most five wrong tries. Answers the code's row. */
  async function checkCode(by: { address?: string; userId?: number }, purposes: CodePurpose[], code: string) {
    const open = await matchCode(by, purposes, code);
    if (!(await repo.consumeCode(open.id))) throw new ApiError(400, AUTH_MESSAGES.codeRejected);
    return open;
  }

  async function issueSession(userId: number, account: AccountRow | null): Promise<Session> {
    const token = await issueSessionToken(repo.db, userId, account?.id ?? null);
    return {
      success: true,
      token,
      authToken: token,
      id: account?.id ?? userId,
      username: account?.username ?? `user-${userId}`,
      accountId: account?.id ?? null,
      accountType: account?.accountType ?? null,
    };
  }

  async function signInUser(userId: number): Promise<Session> {
    const home = await repo.homeAccountOf(userId);
    if (home?.account.disabledAt) throw new ApiError(403, AUTH_MESSAGES.disabled);
    return issueSession(userId, home?.account ?? null);
  }

  /**
   * Completes a sign-up in one transaction: the code is used up, and the user (a new one, the anonymous
   * session's, or an earlier sign-up's that was left without an organisation), the organisation and the
   * owner membership are made — all of it or, on any failure, nothing (the code stays usable).
   * Answers null when the address already has an account to sign in to.
   */
  async function completeSignup(
    codeId: number,
    email: string,
    payload: Record<string, unknown>,
  ): Promise<{ userId: number; account: AccountRow | null }> {
    const name = typeof payload.name === "string" ? payload.name : null;
    const businessName =
      typeof payload.businessName === "string" && payload.businessName ? payload.businessName : null;
    const parentId = typeof payload.accountId === "number" ? payload.accountId : null;
    // Read before the transaction: PGlite has one connection, and the transaction holds it. Without a
    // partner or reseller (a sign-up on the main host) the organisation joins the platform's partner.
    const parent = (parentId ? await deps.loadAccount(parentId) : null) ?? (await platformPartner(repo.db));
    return repo.transaction(async (db) => {
      const tx = createAuthRepository(db);
      if (!(await tx.consumeCode(codeId))) throw new ApiError(400, AUTH_MESSAGES.codeRejected);
      const existing = await tx.findUserByEmail(email);
      if (existing && !existing.temporary) {
        const home = await tx.homeAccountOf(existing.id);
        if (home) return { userId: existing.id, account: null };
      }
      // Only an anonymous session is taken over; any other token passed here is left alone.
      const existingTemp =
        !existing && typeof payload.tempUserToken === "string"
          ? await tx.userOfSession(hashToken(payload.tempUserToken))
          : null;
      let userId: number;
      if (existing) {
        userId = existing.id;
        await tx.updateUser(userId, {
          fullName: name ?? existing.fullName,
          temporary: false,
          emailVerifiedAt: new Date(),
        });
      } else if (existingTemp?.temporary) {
        userId = existingTemp.id;
        await tx.updateUser(userId, { email, fullName: name, temporary: false, emailVerifiedAt: new Date() });
        await tx.revokeUserTokens(userId);
      } else {
        userId = (await tx.insertUser({ email, fullName: name, emailVerifiedAt: new Date() })).id;
      }
      const account = await insertAccountIn(
        db,
        parent,
        {
          accountType: "organization",
          usernameFrom: businessName ?? email,
          email,
          phoneNumber: typeof payload.number === "string" && payload.number ? payload.number : null,
          externalAccountId: typeof payload.externalAccountId === "string" ? payload.externalAccountId : null,
          details: { orgName: businessName ?? name ?? email, fullName: name ?? undefined },
          // The zone of the browser that signed up: the organisation's dates and times read in it, not UTC.
          ...(typeof payload.timeZone === "string" && isValidTimeZone(payload.timeZone)
            ? { settings: { timeZone: payload.timeZone } }
            : {}),
        },
        { userId },
      );
      // Signed up through a referral link: the referrer (resolved when the code was sent) earns from its payments.
      if (typeof payload.referrerAccountId === "number" && typeof payload.target === "string")
        await recordReferral(db, {
          referredAccountId: account.id,
          referrerAccountId: payload.referrerAccountId,
          target: payload.target,
        });
      return { userId, account };
    });
  }

  return {
    async signupEmail(input: {
      email: string;
      name?: string;
      businessName?: string;
      number?: string;
      accountId?: number;
      externalAccountId?: string;
      tempUserToken?: string;
      target?: string;
      network: string;
      host?: string;
    }) {
      const existing = await repo.findUserByEmail(input.email);
      // A user without any account (left so by a failed sign-up) may sign up again to get one.
      if (existing && !existing.temporary && (await repo.homeAccountOf(existing.id)))
        throw new ApiError(409, AUTH_MESSAGES.emailTaken);
      const brand = await brandOf(input.host);
      // On a white-label host the organisation belongs to that partner unless the link names one below it.
      const accountId = input.accountId ?? brand.partner?.id;
      if (accountId) {
        const parent = await deps.loadAccount(accountId);
        if (
          !parent ||
          (parent.accountType !== "partner" && parent.accountType !== "reseller") ||
          parent.disabledAt
        ) {
          throw new ApiError(400, AUTH_MESSAGES.badParent);
        }
        if (parent.settings.allowSignup === false)
          throw new ApiError(403, "Sign-up is closed for this partner.");
      }
      // A referral link names its referrer by username: an unknown, disabled or deleted one refers nobody
      // (the sign-up goes on); an agent account refers for its organisation, whose wallet gets the rewards.
      const referrer = input.target ? await deps.accounts.findByUsername(input.target) : null;
      const referrerAccountId =
        referrer && !referrer.disabledAt
          ? referrer.accountType === "agent" && referrer.organizationId
            ? referrer.organizationId
            : referrer.id
          : null;
      const { network, email, host: _host, target: _target, ...payload } = input;
      await sendCode({
        purpose: "signup",
        channel: "email",
        address: email,
        network,
        payload: {
          ...payload,
          ...(accountId ? { accountId } : {}),
          ...(referrerAccountId && input.target ? { referrerAccountId, target: input.target } : {}),
        },
        brand,
      });
      return { success: true as const, message: `We sent a 6-digit code to ${email}.` };
    },

    async signinEmail(email: string, network: string, host?: string) {
      const found = await repo.findUserByEmail(email);
      const user = found && !found.temporary ? found : null;
      const brand = await brandOf(host);
      await sendCode({
        purpose: "signinEmail",
        channel: "email",
        address: email,
        network,
        ...(user ? { userId: user.id } : { deliver: false }),
        brand,
      });
      return { success: true as const, message: SIGNIN_SENT_MESSAGES.email(email) };
    },

    async verifyEmail(email: string, code: string): Promise<Session> {
      const match = await matchCode({ address: email }, ["signup", "signinEmail"], code);
      if (match.purpose === "signup") {
        const { userId, account } = await completeSignup(match.id, email, match.payload);
        return account ? issueSession(userId, account) : signInUser(userId);
      }
      if (!(await repo.consumeCode(match.id))) throw new ApiError(400, AUTH_MESSAGES.codeRejected);
      const user = await repo.findUserByEmail(email);
      if (!user) throw new ApiError(400, AUTH_MESSAGES.codeRejected);
      return signInUser(user.id);
    },

    async signinPhone(phoneNumber: string, network: string, host?: string) {
      const phone = storedPhoneNumber(phoneNumber);
      const found = await repo.findUserByPhone(phone);
      const user = found?.phoneVerifiedAt ? found : null;
      const brand = await brandOf(host);
      await sendCode({
        purpose: "signinPhone",
        channel: "sms",
        address: phone,
        network,
        ...(user ? { userId: user.id } : { deliver: false }),
        brand,
      });
      return { success: true as const, message: SIGNIN_SENT_MESSAGES.phone(phone) };
    },

    async verifyPhone(phoneNumber: string, code: string): Promise<Session> {
      const phone = storedPhoneNumber(phoneNumber);
      const row = await checkCode({ address: phone }, ["signinPhone"], code);
      if (!row.userId) throw new ApiError(400, AUTH_MESSAGES.codeRejected);
      return signInUser(row.userId);
    },

    async requestEmailVerification(caller: Caller, email: string, network: string, host?: string) {
      const owner = await repo.findUserByEmail(email);
      if (owner && owner.id !== caller.user.id) throw new ApiError(409, AUTH_MESSAGES.emailInUse);
      await sendCode({
        purpose: "verifyEmail",
        channel: "email",
        address: email,
        network,
        userId: caller.user.id,
        brand: await brandOf(host),
      });
      return { success: true as const, message: `We sent a 6-digit code to ${email}.` };
    },

    async validateEmailVerification(caller: Caller, code: string) {
      const row = await checkCode({ userId: caller.user.id }, ["verifyEmail"], code);
      const owner = await repo.findUserByEmail(row.address);
      if (owner && owner.id !== caller.user.id) throw new ApiError(409, AUTH_MESSAGES.emailInUse);
      await repo.updateUser(caller.user.id, {
        email: row.address,
        emailVerifiedAt: new Date(),
        temporary: false,
      });
      return { success: true as const, message: "E-mail address verified." };
    },

    async requestPhoneVerification(caller: Caller, phoneNumber: string, network: string, host?: string) {
      const phone = storedPhoneNumber(phoneNumber);
      const owner = await repo.findUserByPhone(phone);
      if (owner && owner.id !== caller.user.id) throw new ApiError(409, AUTH_MESSAGES.phoneInUse);
      await sendCode({
        purpose: "verifyPhone",
        channel: "sms",
        address: phone,
        network,
        userId: caller.user.id,
        brand: await brandOf(host),
      });
      return { success: true as const, message: `We texted a 6-digit code to ${phone}.` };
    },

    async validatePhoneVerification(caller: Caller, code: string) {
      const row = await checkCode({ userId: caller.user.id }, ["verifyPhone"], code);
      const owner = await repo.findUserByPhone(row.address);
      if (owner && owner.id !== caller.user.id) throw new ApiError(409, AUTH_MESSAGES.phoneInUse);
      await repo.updateUser(caller.user.id, { phoneNumber: row.address, phoneVerifiedAt: new Date() });
      return { success: true as const, message: "Phone number verified." };
    },

    /** An anonymous session: at most ANONYMOUS_SESSIONS_PER_IP per address and window, expiring in a day. */
    async allocateTempUserSession(network: string) {
      const now = Date.now();
      await repo.pruneAnonymousUsers(new Date(now - ANONYMOUS_SESSION_TTL_MS), ANONYMOUS_PRUNE_BATCH);
      return repo.transaction(async (db) => {
        const tx = createAuthRepository(db);
        // Count and insert under a lock per address, so parallel requests cannot all pass the count.
        await tx.lock(`anonymous-session:${network}`);
        if (
          (await tx.countAnonymousSessions(network, new Date(now - RATE_WINDOW_MS))) >=
          ANONYMOUS_SESSIONS_PER_IP
        )
          throw new ApiError(429, AUTH_MESSAGES.anonymousLimited);
        const user = await tx.insertUser({ temporary: true, createdIp: network });
        const token = await issueSessionToken(db, user.id, null, ANONYMOUS_SESSION_TTL_MS);
        return { success: true as const, id: user.id, token };
      });
    },

    async createOneTimeToken(caller: Caller) {
      const token = newToken();
      const expiresAt = new Date(Date.now() + ONE_TIME_TTL_MS);
      await repo.insertToken({
        userId: caller.user.id,
        accountId: caller.account?.id ?? null,
        kind: "oneTime",
        sessionId: caller.tokenId,
        tokenHash: hashToken(token),
        expiresAt,
      });
      return { success: true as const, oneTimeToken: token, expiresAt: expiresAt.toISOString() };
    },

    async exchangeOneTimeToken(oneTimeToken: string) {
      const taken = await repo.takeToken(hashToken(oneTimeToken), "oneTime");
      if (!taken) throw new ApiError(401, AUTH_MESSAGES.badOneTimeToken);
      const account = taken.accountId ? await deps.loadAccount(taken.accountId) : null;
      if (account?.disabledAt) throw new ApiError(403, AUTH_MESSAGES.disabled);
      const session = await issueSession(taken.userId, account);
      return { success: true as const, id: session.id, username: session.username, token: session.token };
    },

    /** Ends this session and its one-time tokens; `everywhere`: every session and token of the user. */
    async logout(caller: Caller, everywhere = false) {
      if (everywhere) await repo.revokeUserTokens(caller.user.id);
      else await repo.revokeSession(caller.tokenId);
      return { success: true as const };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
