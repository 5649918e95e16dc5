import {
  DOMAIN_MESSAGES,
  type Domain,
  type DomainProfile,
  type DomainSettings,
  hostSchema,
  normaliseHost,
} from "@switchboard/api";
import type { AccountRow } from "../../access/access.ts";
import { badRequest, conflict, notFound } from "../../api-error.ts";
import type { DomainSettingsColumn } from "../../db/schema/index.ts";
import { displayNameOf } from "../accounts/index.ts";
import type { DomainRow, DomainsRepository } from "./domains.repository.ts";

export function toDomainSettings(settings: DomainSettingsColumn): DomainSettings {
  return {
    supportUrl: settings.supportUrl ?? null,
    smsMessaging: settings.smsMessaging === true,
    allowEmbeds: settings.allowEmbeds === true,
    appScripts: settings.appScripts ?? [],
  };
}

export function toDomain(row: DomainRow): Domain {
  return {
    id: row.id,
    partnerId: row.accountId,
    host: row.host,
    name: row.name,
    image: row.image,
    settings: toDomainSettings(row.settings),
    isDefault: row.isDefault,
    createdAt: row.createdAt.getTime(),
  };
}

/** The profile the web app applies on a white-label host: the domain's own name and image, else the partner's. */
export function toProfile(row: DomainRow, partner: AccountRow): DomainProfile {
  const partnerImage = partner.details.image;
  return {
    id: partner.id,
    name: row.name ?? displayNameOf(partner),
    details: { image: row.image ?? (typeof partnerImage === "string" ? partnerImage : null) },
    settings: toDomainSettings(row.settings),
    host: row.host,
  };
}

export type SaveDomainInput = {
  domain: string;
  name?: string | null;
  image?: string | null;
  settings?: Partial<DomainSettingsColumn>;
  isDefault?: boolean;
};

export function createDomainsService(deps: { repo: DomainsRepository; publicUrl: string }) {
  const { repo } = deps;
  const ownHost = normaliseHost(new URL(deps.publicUrl).hostname);
  const loopback = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
  /** PUBLIC_URL's host, or any loopback name when PUBLIC_URL is loopback (dev: 127.0.0.1 and localhost). */
  const isOwnHost = (host: string) => host === ownHost || (loopback.has(ownHost) && loopback.has(host));

  function partnerOf(target: AccountRow): AccountRow {
    if (target.accountType !== "partner") throw badRequest(DOMAIN_MESSAGES.partnerOnly);
    return target;
  }

  async function domainOf(partner: AccountRow, host: string): Promise<DomainRow> {
    const row = await repo.findByHost(host);
    // Another partner's host looks like no host at all.
    if (!row || row.accountId !== partner.id) throw notFound(DOMAIN_MESSAGES.notFound);
    return row;
  }

  return {
    /** The white-label profile of a host; null for the product's own host (no error: every page asks). */
    async lookup(domain: string): Promise<DomainProfile | null> {
      if (isOwnHost(normaliseHost(domain))) return null;
      const host = hostSchema.safeParse(domain);
      const found = host.success ? await repo.lookup(host.data) : null;
      if (!found) throw notFound(DOMAIN_MESSAGES.invalid);
      return toProfile(found.domain, found.partner);
    },

    /** Is the host a white-label domain of this partner? */
    async isPartnerHost(host: string, partnerId: number): Promise<boolean> {
      return (await repo.lookup(normaliseHost(host)))?.partner.id === partnerId;
    },

    async get(target: AccountRow, host: string | undefined) {
      const partner = partnerOf(target);
      const row = host ? await domainOf(partner, host) : (await repo.listOf(partner.id))[0];
      if (!row) throw notFound(DOMAIN_MESSAGES.none);
      return { success: true as const, profile: toProfile(row, partner), domain: toDomain(row) };
    },

    async list(target: AccountRow): Promise<Domain[]> {
      return (await repo.listOf(partnerOf(target).id)).map(toDomain);
    },

    /** Adds the host to the partner or changes it; settings are merged into the stored ones. */
    async save(target: AccountRow, input: SaveDomainInput) {
      const partner = partnerOf(target);
      if (input.domain === ownHost) throw badRequest(DOMAIN_MESSAGES.ownHost);
      const existing = await repo.findByHost(input.domain);
      if (existing && existing.accountId !== partner.id) throw conflict(DOMAIN_MESSAGES.inUse);
      const settings = Object.fromEntries(
        Object.entries(input.settings ?? {}).filter(([, value]) => value !== undefined),
      ) as DomainSettingsColumn;
      let row: DomainRow | null;
      if (existing) {
        row = await repo.update(existing.id, {
          ...(input.name !== undefined ? { name: input.name || null } : {}),
          ...(input.image !== undefined ? { image: input.image } : {}),
          settings: { ...existing.settings, ...settings },
        });
      } else {
        row = await repo.insert({
          accountId: partner.id,
          host: input.domain,
          name: input.name || null,
          image: input.image ?? null,
          settings,
        });
        if (!row) throw conflict(DOMAIN_MESSAGES.inUse);
      }
      if (input.isDefault && !row.isDefault) row = await repo.setDefault(partner.id, row.id);
      return { success: true as const, profile: toProfile(row, partner), domain: toDomain(row) };
    },

    async remove(target: AccountRow, host: string) {
      const partner = partnerOf(target);
      const row = await domainOf(partner, host);
      await repo.remove(partner.id, row.id);
      return { success: true as const, message: DOMAIN_MESSAGES.removed };
    },

    async setDefault(target: AccountRow, host: string) {
      const partner = partnerOf(target);
      const row = await domainOf(partner, host);
      return { success: true as const, domain: toDomain(await repo.setDefault(partner.id, row.id)) };
    },
  };
}

export type DomainsService = ReturnType<typeof createDomainsService>;
