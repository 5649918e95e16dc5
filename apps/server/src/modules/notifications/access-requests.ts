import { ACCESS_MESSAGES, ACCESS_REQUEST_REPEAT_MS, type AccessFeature } from "@switchboard/api";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Access } from "../../access/access.ts";
import { badRequest } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import { accounts, notifications, users } from "../../db/schema/index.ts";
import type { EmailProvider } from "../../providers/email/email-provider.ts";
import { organizationOf } from "../runtime/index.ts";
import type { NewNotification } from "./notifications.service.ts";

const FEATURE_LABELS: Record<AccessFeature, string> = { sms: "text messaging (SMS)" };

function displayNameOf(row: { username: string; details: Record<string, unknown> }): string {
  for (const key of ["orgName", "displayName", "name", "accountName"]) {
    const value = row.details[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return row.username;
}

/**
 * The requestAccess overlay: an organisation asks for a feature it does not have (SMS: the "SMS enabled"
 * flag a super admin, partner or reseller above it sets). The request is a support notification of the super
 * admins (grouped per organisation and feature, so its time is remembered even once cleared) and an e-mail to
 * the super admins and to the reseller's and partner's account addresses. Asking again within a day reminds
 * no one.
 */
export function createAccessRequests(deps: {
  db: Database;
  email: EmailProvider;
  notify: (orgId: number | null, input: NewNotification) => Promise<void>;
  log: { warn(details: object, message: string): void };
}) {
  const { db } = deps;
  const groupKey = (feature: AccessFeature, orgId: number) => `access:${feature}:org:${orgId}`;

  async function organizationRow(access: Access) {
    const orgId = organizationOf(access.target);
    if (orgId === null) throw badRequest(ACCESS_MESSAGES.noOrganization);
    if (orgId === access.target.id) return access.target;
    const [row] = await db.select().from(accounts).where(eq(accounts.id, orgId)).limit(1);
    if (!row) throw badRequest(ACCESS_MESSAGES.noOrganization);
    return row;
  }

  async function lastRequest(feature: AccessFeature, orgId: number): Promise<number | null> {
    const [row] = await db
      .select({ at: notifications.updatedAt })
      .from(notifications)
      .where(and(isNull(notifications.orgId), eq(notifications.groupKey, groupKey(feature, orgId))))
      .orderBy(desc(notifications.updatedAt))
      .limit(1);
    return row ? row.at.getTime() : null;
  }

  async function state(access: Access, feature: AccessFeature) {
    const org = await organizationRow(access);
    return {
      success: true as const,
      feature,
      enabled: feature === "sms" ? org.smsEnabled : false,
      requestedAt: await lastRequest(feature, org.id),
    };
  }

  return {
    state,

    async request(access: Access, body: { feature: AccessFeature; message?: string | undefined }) {
      const current = await state(access, body.feature);
      const org = await organizationRow(access);
      if (current.enabled) return { ...current, message: ACCESS_MESSAGES.alreadyOn, sent: false };
      if (current.requestedAt !== null && Date.now() - current.requestedAt < ACCESS_REQUEST_REPEAT_MS)
        return { ...current, message: ACCESS_MESSAGES.alreadySent, sent: false };

      const user = access.caller.user;
      const sender = user.fullName || user.email || user.phoneNumber || `user ${user.id}`;
      const orgName = displayNameOf(org);
      const what = FEATURE_LABELS[body.feature];
      const title = `${orgName} asks for ${what}`;
      const text = [
        `${sender}${user.email ? ` <${user.email}>` : ""} asks to turn on ${what} for ${orgName} (${org.username}, #${org.id}).`,
        ...(body.message ? ["", body.message] : []),
        "",
        `Turn on "SMS enabled" under Accounts → Administer organization.`,
      ].join("\n");
      // Folded per organisation and feature while not cleared; the latest of them is the request's time.
      const key = groupKey(body.feature, org.id);
      await deps.notify(null, {
        kind: "support",
        title,
        body: text.slice(0, 6000),
        link: `/app/org/${org.id}?orgAdmin=${org.id}`,
        groupKey: key,
      });

      const above = [org.resellerId, org.partnerId].filter((id): id is number => typeof id === "number");
      const addresses = new Set<string>();
      if (above.length > 0) {
        const rows = await db
          .select({ email: accounts.email })
          .from(accounts)
          .where(inArray(accounts.id, above));
        for (const row of rows) if (row.email) addresses.add(row.email.toLowerCase());
      }
      const admins = await db
        .select({ email: users.email })
        .from(users)
        .where(and(eq(users.superAdmin, true), sql`${users.email} is not null`));
      for (const admin of admins) if (admin.email) addresses.add(admin.email.toLowerCase());
      for (const to of addresses) {
        await deps.email
          .send({ to, subject: `Access request — ${title}`, text })
          .catch((error) => deps.log.warn({ err: error }, "could not e-mail an access request"));
      }
      return {
        ...(await state(access, body.feature)),
        message: ACCESS_MESSAGES.sent,
        sent: true,
      };
    },
  };
}
