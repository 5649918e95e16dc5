import { CONTACT_MESSAGES, type Contact } from "@switchboard/api";
import { type Access, type AccessResolver, isWithin } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import { contactAddresses, contactDisplayName } from "./contact-fields.ts";
import type { ContactRow, ContactsRepository } from "./contacts.repository.ts";

/** Fields the server owns: never stored among the free fields. */
const OWN_FIELDS = new Set(["id", "displayName", "addresses", "createdAt", "updatedAt"]);

function freeFields(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !OWN_FIELDS.has(key)));
}

export function createContactsService(deps: {
  repo: ContactsRepository;
  access: AccessResolver;
  realtime: RealtimeHub;
  /** contact.created for the organisation's webhooks. */
  webhooks?: WebhookEvents;
}) {
  const { repo } = deps;

  /** The organisation whose contacts a call reads: orgAccountId (at or below the target), else the target's. */
  async function orgOf(access: Access, orgAccountId: number | undefined): Promise<number> {
    const target = access.target;
    const own =
      target.accountType === "organization"
        ? target.id
        : target.accountType === "agent"
          ? target.organizationId
          : null;
    if (orgAccountId === undefined || orgAccountId === own) {
      if (own === null) throw badRequest(CONTACT_MESSAGES.noOrg);
      return own;
    }
    const org = await deps.access.loadAccount(orgAccountId);
    if (org?.accountType !== "organization" || !isWithin(target, org))
      throw notFound(CONTACT_MESSAGES.notFound);
    await deps.access.requirePermission(access, org, "canViewOrg");
    return org.id;
  }

  function toContact(row: ContactRow, addresses: string[]): Contact {
    return {
      ...row.data,
      id: row.id,
      displayName: row.displayName,
      addresses,
      createdAt: row.createdAt.getTime(),
      updatedAt: row.updatedAt.getTime(),
    };
  }

  const changed = (orgId: number) =>
    deps.realtime.publish({ orgId, agentId: null, event: { type: "contacts" } });

  return {
    async list(
      access: Access,
      query: { orgAccountId?: number | undefined; q?: string | undefined; page: number; pageSize: number },
    ) {
      const orgId = await orgOf(access, query.orgAccountId);
      const { rows, total } = await repo.list(orgId, query.q || undefined, query.page, query.pageSize);
      const addresses = await repo.addressesOf(rows.map((r) => r.id));
      return {
        success: true as const,
        contacts: rows.map((r) => toContact(r, addresses.get(r.id) ?? [])),
        total,
      };
    },

    async get(access: Access, id: number, orgAccountId: number | undefined) {
      const orgId = await orgOf(access, orgAccountId);
      const row = await repo.find(orgId, id);
      if (!row) throw notFound(CONTACT_MESSAGES.notFound);
      const addresses = (await repo.addressesOf([row.id])).get(row.id) ?? [];
      const rooms = await repo.roomsOf(orgId, addresses);
      return {
        success: true as const,
        contact: toContact(row, addresses),
        rooms: rooms.map((r) => ({
          roomId: r.id,
          lastMessage: r.lastMessageText,
          lastMessageAt: r.lastMessageAt ? r.lastMessageAt.getTime() : null,
        })),
      };
    },

    async save(
      access: Access,
      orgAccountId: number | undefined,
      body: {
        id?: number | undefined;
        newData?: Record<string, unknown> | undefined;
        data?: Record<string, unknown> | undefined;
      },
    ) {
      const orgId = await orgOf(access, orgAccountId);
      const data = freeFields(body.newData ?? body.data ?? {});
      const displayName = contactDisplayName(data);
      const addresses = contactAddresses(data);
      if (!displayName && addresses.length === 0) throw badRequest(CONTACT_MESSAGES.empty);
      if (body.id !== undefined && !(await repo.find(orgId, body.id)))
        throw notFound(CONTACT_MESSAGES.notFound);
      const row = await repo.save(orgId, body.id ?? null, { data, displayName, addresses });
      if (!row) throw notFound(CONTACT_MESSAGES.notFound);
      await changed(orgId);
      const contact = toContact(row, addresses);
      if (body.id === undefined)
        await deps.webhooks?.emit(orgId, "contact.created", {
          contactId: row.id,
          displayName: contact.displayName,
          addresses,
          data,
          createdAt: contact.createdAt,
        });
      return { success: true as const, contact };
    },

    async remove(access: Access, orgAccountId: number | undefined, id: number) {
      const orgId = await orgOf(access, orgAccountId);
      if (!(await repo.remove(orgId, id))) throw notFound(CONTACT_MESSAGES.notFound);
      await changed(orgId);
      return { success: true as const, id };
    },

    async mobile(access: Access) {
      const orgId = await orgOf(access, undefined);
      const { rows } = await repo.list(orgId, undefined, 0, 5000);
      const addresses = await repo.addressesOf(rows.map((r) => r.id));
      return {
        success: true as const,
        contacts: rows.map((r) => {
          const all = addresses.get(r.id) ?? [];
          return {
            id: r.id,
            name: r.displayName,
            phoneNumbers: all.filter((a) => !a.includes("@")),
            emails: all.filter((a) => a.includes("@")),
          };
        }),
      };
    },
  };
}

export type ContactsService = ReturnType<typeof createContactsService>;
