import * as api from "@switchboard/api";
import { normalizeAddress } from "@switchboard/core";
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { badRequest, tooManyRequests } from "../../api-error.ts";
import type { AppContext } from "../../app-context.ts";
import { checkIns, referralInvites, referralVisits } from "../../db/schema/index.ts";
import { handle } from "../../http/routes.ts";
import { displayNameOf } from "../accounts/index.ts";

/** Invitations with the referral link, referral visits and the mobile app's check-ins. */
export function referralRoutes(context: AppContext) {
  const db = context.database.db;
  return [
    handle(api.sendInvite, async ({ body }, { access }) => {
      const address = normalizeAddress(body.target);
      if (!address) throw badRequest(api.PUBLIC_MESSAGES.badInviteTarget);
      const kind = address.kind === "email" ? ("email" as const) : ("phone" as const);
      const account = access.target;
      const [sent] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(referralInvites)
        .where(
          and(
            eq(referralInvites.accountId, account.id),
            gte(referralInvites.createdAt, new Date(Date.now() - 24 * 60 * 60 * 1000)),
          ),
        );
      if ((sent?.n ?? 0) >= api.INVITES_PER_DAY) throw tooManyRequests(api.PUBLIC_MESSAGES.invitesLimited);
      const link = `${context.config.publicUrl}/signup?ref=${encodeURIComponent(account.username)}`;
      const who = displayNameOf(account);
      const text = `${who} invites you to Switchboard, AI agents that answer your calls and texts. Sign up: ${link}`;
      if (kind === "email")
        await context.email.send({ to: address.address, subject: `${who} invites you to Switchboard`, text });
      else await context.sms.send({ to: address.address, body: text });
      await db
        .insert(referralInvites)
        .values({ accountId: account.id, userId: access.caller.user.id, target: address.address, kind });
      return { success: true as const, kind, link };
    }),
    handle(api.ipCorrelator, async ({ body }, { request }) => {
      await db
        .insert(referralVisits)
        .values({ ref: body.ref.toLowerCase(), page: body.page, ip: request.ip });
      return { success: true as const };
    }),
    handle(api.mobileCheckIn, async ({ body }, { access }) => {
      const { kind, ...data } = body;
      const [row] = await db
        .insert(checkIns)
        .values({ userId: access.caller.user.id, accountId: access.target.id, kind, data })
        .returning();
      return {
        success: true as const,
        checkIn: { kind, data: row?.data ?? data, at: (row?.createdAt ?? new Date()).getTime() },
      };
    }),
    handle(api.getCheckIn, async ({ params }, { access }) => {
      const [row] = await db
        .select()
        .from(checkIns)
        .where(and(eq(checkIns.userId, access.caller.user.id), eq(checkIns.kind, params.kind)))
        .orderBy(desc(checkIns.createdAt), desc(checkIns.id))
        .limit(1);
      return {
        success: true as const,
        checkIn: row ? { kind: row.kind, data: row.data, at: row.createdAt.getTime() } : null,
      };
    }),
  ];
}
