import { and, asc, count, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { contactAddresses, contacts, rooms } from "../../db/schema/index.ts";

export type ContactRow = typeof contacts.$inferSelect;

export function createContactsRepository(db: Database) {
  async function addressesOf(ids: number[]): Promise<Map<number, string[]>> {
    const map = new Map<number, string[]>();
    if (ids.length === 0) return map;
    const rows = await db.select().from(contactAddresses).where(inArray(contactAddresses.contactId, ids));
    for (const row of rows) map.set(row.contactId, [...(map.get(row.contactId) ?? []), row.address]);
    return map;
  }

  return {
    addressesOf,

    async list(orgId: number, q: string | undefined, page: number, pageSize: number) {
      // Numbers are stored in E.164: a typed number is searched by its digits.
      const digits = q && /^[\d\s()+.-]+$/.test(q) ? q.replace(/\D/g, "") : null;
      const addressPart = digits ?? q?.toLowerCase() ?? "";
      const search = q
        ? or(
            ilike(contacts.displayName, `%${q.replace(/[%_\\]/g, "\\$&")}%`),
            sql`exists (select 1 from contact_addresses ca where ca.contact_id = ${contacts.id} and strpos(${digits !== null ? sql`regexp_replace(ca.address, '\D', '', 'g')` : sql`ca.address`}, ${addressPart}) > 0)`,
          )
        : undefined;
      const where = search ? and(eq(contacts.orgId, orgId), search) : eq(contacts.orgId, orgId);
      const rows = await db
        .select()
        .from(contacts)
        .where(where)
        .orderBy(asc(sql`lower(${contacts.displayName})`), asc(contacts.id))
        .limit(pageSize)
        .offset(page * pageSize);
      const [total] = await db.select({ n: count() }).from(contacts).where(where);
      return { rows, total: Number(total?.n ?? 0) };
    },

    async find(orgId: number, id: number): Promise<ContactRow | null> {
      const [row] = await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.orgId, orgId), eq(contacts.id, id)))
        .limit(1);
      return row ?? null;
    },

    async save(
      orgId: number,
      id: number | null,
      values: { data: Record<string, unknown>; displayName: string; addresses: string[] },
    ): Promise<ContactRow | null> {
      return db.transaction(async (tx) => {
        let row: ContactRow | undefined;
        if (id === null) {
          [row] = await tx
            .insert(contacts)
            .values({ orgId, data: values.data, displayName: values.displayName })
            .returning();
        } else {
          [row] = await tx
            .update(contacts)
            .set({ data: values.data, displayName: values.displayName, updatedAt: new Date() })
            .where(and(eq(contacts.orgId, orgId), eq(contacts.id, id)))
            .returning();
        }
        if (!row) return null;
        await tx.delete(contactAddresses).where(eq(contactAddresses.contactId, row.id));
        if (values.addresses.length > 0)
          await tx
            .insert(contactAddresses)
            .values(values.addresses.map((address) => ({ orgId, address, contactId: row.id })))
            .onConflictDoNothing();
        return row;
      });
    },

    async remove(orgId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(contacts)
        .where(and(eq(contacts.orgId, orgId), eq(contacts.id, id)))
        .returning({ id: contacts.id });
      return rows.length > 0;
    },

    async roomsOf(orgId: number, addresses: string[]) {
      if (addresses.length === 0) return [];
      return db
        .select({ id: rooms.id, lastMessageText: rooms.lastMessageText, lastMessageAt: rooms.lastMessageAt })
        .from(rooms)
        .where(and(eq(rooms.orgId, orgId), eq(rooms.kind, "live"), inArray(rooms.externalAddress, addresses)))
        .orderBy(sql`${rooms.lastMessageAt} desc nulls last`)
        .limit(50);
    },
  };
}

export type ContactsRepository = ReturnType<typeof createContactsRepository>;
