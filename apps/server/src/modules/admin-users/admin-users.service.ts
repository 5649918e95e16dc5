import { ADMIN_USER_MESSAGES, type AdminUser, INVITATION_TTL_DAYS, normaliseHost } from "@switchboard/api";
import { type Access, type AccountRow, isAbove } from "../../access/access.ts";
import { hashToken, newToken } from "../../access/secrets.ts";
import { ApiError, badRequest, forbidden, notFound } from "../../api-error.ts";
import type { EmailProvider } from "../../providers/email/email-provider.ts";
import { displayNameOf } from "../accounts/index.ts";
import type { AdminUsersRepository, MemberRow } from "./admin-users.repository.ts";

export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60_000;

export function toAdminUser(member: MemberRow): AdminUser {
  return {
    id: member.user.id,
    email: member.user.email,
    fullName: member.user.fullName,
    phoneNumber: member.user.phoneNumber,
    role: member.role,
    timestamp: member.joinedAt.getTime(),
    invited: !member.signedIn,
  };
}

/** May the caller make or remove owners of the target? Its owners, and anyone above it. */
export function canManageOwners(access: Access): boolean {
  const { caller, target } = access;
  return (caller.role === "owner" && caller.account?.id === target.id) || isAbove(caller, target);
}

type Deps = {
  repo: AdminUsersRepository;
  email: EmailProvider;
  publicUrl: string;
  /** In development the web app also runs on its own port (Vite): local addresses are accepted. */
  allowLocalRedirects: boolean;
  /** Is this host a white-label domain of that partner? */
  isPartnerHost: (host: string, partnerId: number) => Promise<boolean>;
};

export function createAdminUsersService(deps: Deps) {
  const { repo } = deps;
  const publicOrigin = new URL(deps.publicUrl).origin;

  function assertMembersAllowed(account: AccountRow): void {
    if (account.accountType === "agent") throw badRequest(ADMIN_USER_MESSAGES.agentAccount);
  }

  /**
   * Where an invitation link to `account` may lead: the product's own address or a white-label host of the
   * account's own partner, never elsewhere — the link carries a token that signs someone in.
   */
  async function checkRedirect(account: AccountRow, redirectUrl: string | undefined): Promise<URL> {
    if (!redirectUrl) return new URL(`${deps.publicUrl}/app`);
    const url = new URL(redirectUrl);
    const host = normaliseHost(url.hostname);
    const local = host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1";
    const partnerId = account.accountType === "partner" ? account.id : account.partnerId;
    if (
      url.origin === publicOrigin ||
      (deps.allowLocalRedirects && local) ||
      (partnerId !== null && (await deps.isPartnerHost(host, partnerId)))
    ) {
      url.hash = "";
      return url;
    }
    throw badRequest(ADMIN_USER_MESSAGES.badRedirect);
  }

  /**
   * Makes the person a member (created if new; an admin raised to owner when asked, an owner never lowered)
   * and e-mails a link whose one-time token signs them in to the account for 7 days.
   */
  async function invite(
    account: AccountRow,
    input: { email: string; isOwner: boolean; redirect: URL; invitedBy: string | null },
  ): Promise<AdminUser> {
    const user = await repo.userForEmail(input.email);
    const member = await repo.addMember(account.id, user.id, input.isOwner ? "owner" : "admin");
    const token = newToken();
    await repo.insertOneTimeToken({
      userId: user.id,
      accountId: account.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    });
    const link = new URL(input.redirect);
    link.searchParams.set("oneTimeToken", token);
    const name = displayNameOf(account);
    const role = member.role === "owner" ? "an owner" : "an admin";
    await deps.email.send({
      to: input.email,
      subject: `You are invited to ${name} on Switchboard`,
      text: [
        `${input.invitedBy ?? "Someone"} invited you to ${name} on Switchboard as ${role}.`,
        "",
        `Open this link to sign in: ${link.toString()}`,
        "",
        `The link works once and expires in ${INVITATION_TTL_DAYS} days. Afterwards, sign in with your e-mail address.`,
        "If you did not expect this invitation, ignore this message.",
      ].join("\n"),
    });
    return toAdminUser(member);
  }

  return {
    checkRedirect,
    invite,

    async inviteToTarget(access: Access, input: { email: string; isOwner: boolean; redirectUrl?: string }) {
      assertMembersAllowed(access.target);
      if (input.isOwner && !canManageOwners(access)) throw forbidden(ADMIN_USER_MESSAGES.ownersOnlyInvite);
      const redirect = await checkRedirect(access.target, input.redirectUrl);
      const caller = access.caller.user;
      const user = await invite(access.target, {
        email: input.email,
        isOwner: input.isOwner,
        redirect,
        invitedBy: caller.fullName ?? caller.email,
      });
      return { success: true as const, message: ADMIN_USER_MESSAGES.invited(input.email), user };
    },

    async list(account: AccountRow): Promise<AdminUser[]> {
      assertMembersAllowed(account);
      return (await repo.listMembers(account.id)).map(toAdminUser);
    },

    async remove(access: Access, userId: number) {
      assertMembersAllowed(access.target);
      const member = await repo.findMember(access.target.id, userId);
      if (!member) throw notFound(ADMIN_USER_MESSAGES.userNotFound);
      if (member.role === "owner" && !canManageOwners(access))
        throw forbidden(ADMIN_USER_MESSAGES.ownersOnlyRemove);
      const result = await repo.removeMember(access.target.id, userId);
      if (result === "missing") throw notFound(ADMIN_USER_MESSAGES.userNotFound);
      if (result === "lastOwner") throw new ApiError(409, ADMIN_USER_MESSAGES.lastOwner);
      return { success: true as const, message: ADMIN_USER_MESSAGES.removed };
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
