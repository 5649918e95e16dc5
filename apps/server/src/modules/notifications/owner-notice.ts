import type { FastifyBaseLogger } from "fastify";
import type { EmailProvider } from "../../providers/email/email-provider.ts";
import type { NewNotification } from "./notifications.service.ts";

export type OwnerNoticeDeps = {
  notifyOnce: (orgId: number, input: NewNotification & { groupKey: string }) => Promise<boolean>;
  email: EmailProvider | null;
  ownerEmails: (orgId: number) => Promise<string[]>;
  log: FastifyBaseLogger;
};

/**
 * A money notice: the organisation's bell once per `groupKey`, and that first time an e-mail to each of its
 * owners ending "Open <place>: <link>". A failed e-mail is logged, never thrown: the bell has it.
 */
export async function noticeToOwners(
  deps: OwnerNoticeDeps,
  orgId: number,
  notice: NewNotification & { groupKey: string },
  place: string,
) {
  const made = await deps.notifyOnce(orgId, notice);
  if (!made || !deps.email) return;
  const { email } = deps;
  for (const to of await deps.ownerEmails(orgId))
    await email
      .send({ to, subject: notice.title, text: `${notice.body}\n\nOpen ${place}: ${notice.link}` })
      .catch((error: unknown) => deps.log.warn({ err: error, orgId }, `could not e-mail "${notice.title}"`));
}
