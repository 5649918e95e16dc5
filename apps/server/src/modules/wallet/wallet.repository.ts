import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { checkoutSessions, lightningInvoices } from "../../db/schema/index.ts";

export type CheckoutRow = typeof checkoutSessions.$inferSelect;
export type InvoiceRow = typeof lightningInvoices.$inferSelect;

/** The wallet's own rows: card checkouts and lightning invoices (the money itself is in the ledger). */
export function createWalletRepository(db: Database) {
  return {
    async insertCheckout(values: typeof checkoutSessions.$inferInsert): Promise<CheckoutRow> {
      const [row] = await db.insert(checkoutSessions).values(values).returning();
      if (!row) throw new Error("checkout not inserted");
      return row;
    },

    async checkout(id: string): Promise<CheckoutRow | null> {
      const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
      return row ?? null;
    },

    async setCheckoutProvider(id: string, providerSessionId: string | null, url: string): Promise<void> {
      await db.update(checkoutSessions).set({ providerSessionId, url }).where(eq(checkoutSessions.id, id));
    },

    async setCheckoutError(id: string, lastError: string | null): Promise<void> {
      await db.update(checkoutSessions).set({ lastError }).where(eq(checkoutSessions.id, id));
    },

    /** Open -> expired (the user cancelled): it can no longer be paid. */
    async expireCheckout(id: string): Promise<boolean> {
      const rows = await db
        .update(checkoutSessions)
        .set({ status: "expired" })
        .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, "open")))
        .returning({ id: checkoutSessions.id });
      return rows.length > 0;
    },

    /** Marks it complete in the transaction that credits it. */
    async completeCheckout(tx: Database, id: string, providerSessionId: string | null): Promise<void> {
      await tx
        .update(checkoutSessions)
        .set({
          status: "complete",
          completedAt: new Date(),
          lastError: null,
          ...(providerSessionId ? { providerSessionId } : {}),
        })
        .where(and(eq(checkoutSessions.id, id), ne(checkoutSessions.status, "complete")));
    },

    async pendingInvoice(owner: number): Promise<InvoiceRow | null> {
      const [row] = await db
        .select()
        .from(lightningInvoices)
        .where(
          and(
            eq(lightningInvoices.ownerAccountId, owner),
            eq(lightningInvoices.status, "pending"),
            isNull(lightningInvoices.paymentLinkId),
          ),
        )
        .limit(1);
      return row ?? null;
    },

    async invoiceByRequest(owner: number, paymentRequest: string): Promise<InvoiceRow | null> {
      const [row] = await db
        .select()
        .from(lightningInvoices)
        .where(
          and(
            eq(lightningInvoices.ownerAccountId, owner),
            eq(sql`lower(${lightningInvoices.paymentRequest})`, paymentRequest.toLowerCase()),
          ),
        )
        .orderBy(desc(lightningInvoices.id))
        .limit(1);
      return row ?? null;
    },

    async resetPending(owner: number): Promise<boolean> {
      const rows = await db
        .update(lightningInvoices)
        .set({ status: "reset" })
        .where(
          and(
            eq(lightningInvoices.ownerAccountId, owner),
            eq(lightningInvoices.status, "pending"),
            isNull(lightningInvoices.paymentLinkId),
          ),
        )
        .returning({ id: lightningInvoices.id });
      return rows.length > 0;
    },

    /** Replaces the owner's pending invoice by this one, in one transaction (one pending per owner). */
    async replacePending(values: typeof lightningInvoices.$inferInsert): Promise<InvoiceRow> {
      return db.transaction(async (tx) => {
        await tx
          .update(lightningInvoices)
          .set({ status: "reset" })
          .where(
            and(
              eq(lightningInvoices.ownerAccountId, values.ownerAccountId),
              eq(lightningInvoices.status, "pending"),
              isNull(lightningInvoices.paymentLinkId),
            ),
          );
        const [row] = await tx.insert(lightningInvoices).values(values).returning();
        if (!row) throw new Error("invoice not inserted");
        return row;
      });
    },

    /** Marks it paid in the transaction that credits it; false when it was paid already. */
    async markInvoicePaid(tx: Database, id: number): Promise<boolean> {
      const rows = await tx
        .update(lightningInvoices)
        .set({ status: "paid", paidAt: new Date() })
        .where(and(eq(lightningInvoices.id, id), ne(lightningInvoices.status, "paid")))
        .returning({ id: lightningInvoices.id });
      return rows.length > 0;
    },

    /** A payment link's invoice (anyone may ask for one: not the owner's pending invoice). */
    async insertLinkInvoice(values: typeof lightningInvoices.$inferInsert): Promise<InvoiceRow> {
      const [row] = await db.insert(lightningInvoices).values(values).returning();
      if (!row) throw new Error("invoice not inserted");
      return row;
    },

    async linkInvoiceByRequest(linkId: number, paymentRequest: string): Promise<InvoiceRow | null> {
      const [row] = await db
        .select()
        .from(lightningInvoices)
        .where(
          and(
            eq(lightningInvoices.paymentLinkId, linkId),
            eq(sql`lower(${lightningInvoices.paymentRequest})`, paymentRequest.toLowerCase()),
          ),
        )
        .limit(1);
      return row ?? null;
    },

    async invoiceById(id: number): Promise<InvoiceRow | null> {
      const [row] = await db.select().from(lightningInvoices).where(eq(lightningInvoices.id, id)).limit(1);
      return row ?? null;
    },
  };
}

export type WalletRepository = ReturnType<typeof createWalletRepository>;
