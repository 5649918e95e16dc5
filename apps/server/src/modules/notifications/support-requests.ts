import { PUBLIC_MESSAGES, SUPPORT_PER_HOUR, type SUPPORT_TOPICS } from "@switchboard/api";
import { and, eq, gt, isNull, like, sql } from "drizzle-orm";
import type { Access } from "../../access/access.ts";
import { ApiError } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import { notifications, users } from "../../db/schema/index.ts";
import type { EmailProvider } from "../../providers/email/email-provider.ts";
import type { NewNotification } from "./notifications.service.ts";

const TOPIC_LABELS: Record<(typeof SUPPORT_TOPICS)[number], string> = {
  question: "Question",
  problem: "Problem",
  billing: "Billing",
  feedback: "Feedback",
};

/**
 * The get-support form: a request becomes a support notification for the super admins (orgId null) and an
 * e-mail to each of them, answerable to the sender. Each request's group key names its sender, which is
 * how the hourly limit counts them (no fold: the key is unique per request).
 */
export function createSupportRequests(deps: {
  db: Database;
  email: EmailProvider;
  notify: (orgId: number | null, input: NewNotification) => Promise<void>;
  log: { warn(details: object, message: string): void };
}) {
  const { db } = deps;
  return async function sendSupportRequest(
    access: Access,
    body: { topic: (typeof SUPPORT_TOPICS)[number]; message: string; page?: string | undefined },
  ) {
    const user = access.caller.user;
    const prefix = `support:user:${user.id}:`;
    const [recent] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(
        and(
          isNull(notifications.orgId),
          like(notifications.groupKey, `${prefix}%`),
          gt(notifications.createdAt, new Date(Date.now() - 3600_000)),
        ),
      );
    if ((recent?.n ?? 0) >= SUPPORT_PER_HOUR) throw new ApiError(429, PUBLIC_MESSAGES.supportLimited);

    const sender = user.fullName || user.email || user.phoneNumber || `user ${user.id}`;
    const account = `${access.target.username ?? "account"} (#${access.target.id}, ${access.target.accountType})`;
    const details = [
      `From: ${sender}${user.email ? ` <${user.email}>` : ""}`,
      `Account: ${account}`,
      ...(body.page ? [`Page: ${body.page}`] : []),
    ];
    const title = `${TOPIC_LABELS[body.topic]} from ${sender}`;
    await deps.notify(null, {
      kind: "support",
      title,
      body: `${body.message}\n\n${details.join("\n")}`.slice(0, 6000),
      link: null,
      groupKey: `${prefix}${Date.now()}:${Math.random().toString(36).slice(2, 8)}`,
    });
    const admins = await db
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.superAdmin, true), sql`${users.email} is not null`));
    for (const admin of admins) {
      if (!admin.email) continue;
      await deps.email
        .send({
          to: admin.email,
          subject: `Support request — ${title}`,
          text: `${body.message}\n\n${details.join("\n")}\n\nAnswer by e-mail${user.email ? ` to ${user.email}` : ""}.`,
        })
        .catch((error) => deps.log.warn({ err: error }, "could not e-mail a support request"));
    }
    return { success: true as const, message: PUBLIC_MESSAGES.supportSent };
  };
}
