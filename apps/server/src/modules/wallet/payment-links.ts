import { PAYMENT_LINK_MESSAGES, type PaymentLink, payPagePath } from "@switchboard/api";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Access } from "../../access/access.ts";
import { conflict, notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import { accounts, checkoutSessions, paymentLinks } from "../../db/schema/index.ts";
import { displayNameOf } from "../accounts/index.ts";
import { walletOwnerOf } from "./wallet-owner.ts";

export type PaymentLinkRow = typeof paymentLinks.$inferSelect;

/**
 * Payment links of a wallet owner: made and disabled by its owner, opened by anyone (`fetchPaymentSlug`),
 * paid through the wallet's card checkout (wallet.service `checkoutLink`), which credits the link's owner.
 */
export function createPaymentLinks(deps: { db: Database; publicUrl: string }) {
  const { db } = deps;

  async function bySlug(slug: string): Promise<PaymentLinkRow | null> {
    const [row] = await db
      .select()
      .from(paymentLinks)
      .where(eq(sql`lower(${paymentLinks.slug})`, slug.trim().toLowerCase()))
      .limit(1);
    return row ?? null;
  }

  async function views(rows: PaymentLinkRow[]): Promise<PaymentLink[]> {
    const ids = rows.map((r) => r.id);
    const totals = ids.length
      ? await db
          .select({
            linkId: checkoutSessions.paymentLinkId,
            count: sql<number>`count(*)::int`,
            cents: sql<number>`coalesce(sum(${checkoutSessions.amountCents}), 0)::bigint`,
          })
          .from(checkoutSessions)
          .where(and(inArray(checkoutSessions.paymentLinkId, ids), eq(checkoutSessions.status, "complete")))
          .groupBy(checkoutSessions.paymentLinkId)
      : [];
    const byId = new Map(totals.map((t) => [t.linkId, t]));
    return rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      title: row.title,
      amountCents: row.amountCents ?? null,
      status: row.status,
      url: `${deps.publicUrl}${payPagePath(row.slug)}`,
      paidCount: Number(byId.get(row.id)?.count ?? 0),
      paidCents: Number(byId.get(row.id)?.cents ?? 0),
      createdAt: row.createdAt.getTime(),
    }));
  }

  async function list(access: Access) {
    const rows = await db
      .select()
      .from(paymentLinks)
      .where(eq(paymentLinks.ownerAccountId, walletOwnerOf(access.target)))
      .orderBy(desc(paymentLinks.id))
      .limit(200);
    return { success: true as const, links: await views(rows) };
  }

  async function create(access: Access, body: { slug: string; title: string; amount: number | null }) {
    const [row] = await db
      .insert(paymentLinks)
      .values({
        ownerAccountId: walletOwnerOf(access.target),
        slug: body.slug,
        title: body.title,
        amountCents: body.amount === null ? null : Math.round(body.amount * 100),
        createdByUserId: access.caller.user.id,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict(PAYMENT_LINK_MESSAGES.slugTaken);
    const [view] = await views([row]);
    return { success: true as const, link: view as PaymentLink };
  }

  async function update(access: Access, id: number, body: { status: "active" | "disabled" }) {
    const [row] = await db
      .update(paymentLinks)
      .set({ status: body.status })
      .where(and(eq(paymentLinks.id, id), eq(paymentLinks.ownerAccountId, walletOwnerOf(access.target))))
      .returning();
    if (!row) throw notFound(PAYMENT_LINK_MESSAGES.linkNotFound);
    const [view] = await views([row]);
    return { success: true as const, link: view as PaymentLink };
  }

  /** What the link's public page shows. A disabled link is shown as such (no longer accepting payments). */
  async function fetchPublic(slug: string) {
    const row = await bySlug(slug);
    if (!row) throw notFound(PAYMENT_LINK_MESSAGES.linkNotFound);
    const [owner] = await db.select().from(accounts).where(eq(accounts.id, row.ownerAccountId)).limit(1);
    if (!owner) throw notFound(PAYMENT_LINK_MESSAGES.linkNotFound);
    return {
      success: true as const,
      slug: row.slug,
      displayName: displayNameOf(owner),
      title: row.title,
      amountCents: row.amountCents ?? null,
      currency: "usd" as const,
      active: row.status === "active",
    };
  }

  return { bySlug, list, create, update, fetchPublic };
}

export type PaymentLinks = ReturnType<typeof createPaymentLinks>;
