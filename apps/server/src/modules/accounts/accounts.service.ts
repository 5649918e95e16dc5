import {
  ACCOUNT_MESSAGES,
  type AccountFields,
  DISABLE_MESSAGE,
  ENABLE_MESSAGE,
  PARTNER_SETTING_KEYS,
  type PublicAccount,
} from "@switchboard/api";
import { isActingAsHigherRole, isValidTimeZone } from "@switchboard/core";
import { type Access, type AccountRow, actsAbove, isWithin, MESSAGES } from "../../access/access.ts";
import { ApiError, conflict, notFound } from "../../api-error.ts";
import type { StorageProvider } from "../../providers/storage/storage-provider.ts";
import { displayNameOf } from "./account-view.ts";
import type { AccountsRepository } from "./accounts.repository.ts";
import { detectImageType } from "./image-type.ts";
import { storedPhoneNumber } from "./phone-number.ts";

/** Names the product's own pages and files use: no account may take them as its username. */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  "admin",
  "api",
  "app",
  "assets",
  "docs",
  "files",
  "help",
  "internal",
  "mobile",
  "signin",
  "signup",
  "static",
  "support",
  "www",
]);

/** Where each account type keeps its own name in details (product spec §3). */
export const NAME_KEY: Record<AccountRow["accountType"], string> = {
  partner: "partnerName",
  reseller: "resellerName",
  organization: "orgName",
  agent: "agentName",
};

/**
 * May the caller change the partner-controlled flags of the target? A super admin, partner or reseller
 * acting as such on an account below it, or on its own partner or reseller account (where the flags close
 * sign-up or set what its organisations get) — never an organisation's own users.
 */
export function mayChangePartnerFlags(access: Access): boolean {
  if (actsAbove(access)) return true;
  const home = access.caller.account;
  return (
    isActingAsHigherRole(access.rank, access.viewingAs) &&
    home !== null &&
    (home.accountType === "partner" || home.accountType === "reseller") &&
    isWithin(home, access.target)
  );
}

/** A settings' timeZone when it names a zone Intl knows. */
function zoneIn(settings: Record<string, unknown> | undefined): string | null {
  const zone = settings?.timeZone;
  return typeof zone === "string" && isValidTimeZone(zone) ? zone : null;
}

export function createAccountsService(deps: { repo: AccountsRepository; storage: StorageProvider }) {
  const { repo, storage } = deps;

  /** The account fields of the catalogue onto a row: columns set, details merged (empty text removes). */
  async function updateFields(
    target: AccountRow,
    fields: AccountFields,
    extra: { premium?: boolean; smsEnabled?: boolean } = {},
  ): Promise<AccountRow> {
    const columns: Parameters<AccountsRepository["updateFields"]>[1] = { ...extra };
    if (fields.email !== undefined) columns.email = fields.email;
    if (fields.externalAccountId !== undefined) columns.externalAccountId = fields.externalAccountId || null;
    if (fields.externalBillingId !== undefined) columns.externalBillingId = fields.externalBillingId || null;
    if (fields.phoneNumber !== undefined)
      columns.phoneNumber = fields.phoneNumber === null ? null : storedPhoneNumber(fields.phoneNumber);
    const details: Record<string, unknown> = {};
    const remove: string[] = [];
    if (fields.name !== undefined) {
      details[NAME_KEY[target.accountType]] = fields.name;
      details.name = fields.name;
      // A stored displayName would hide the new name: it follows the name.
      if (typeof target.details.displayName === "string") details.displayName = fields.name;
    }
    for (const key of ["accountName", "fullName"] as const) {
      const value = fields[key];
      if (value === undefined) continue;
      if (value) details[key] = value;
      else remove.push(key);
    }
    return repo.updateFields(target.id, columns, details, remove);
  }

  return {
    updateFields,

    /**
     * The zone the account's times read in (issue 32 item 10): its own settings.timeZone, else that of its
     * nearest ancestor with one (an agent's organisation, then the reseller, then the partner), whoever
     * views it; null when none names a zone Intl knows.
     */
    async timeZoneOf(account: AccountRow): Promise<string | null> {
      const own = zoneIn(account.settings);
      if (own) return own;
      const ancestors = [account.organizationId, account.resellerId, account.partnerId].filter(
        (id): id is number => id !== null && id !== account.id,
      );
      const settings = await repo.settingsOf(ancestors);
      for (const id of ancestors) {
        const zone = zoneIn(settings.get(id));
        if (zone) return zone;
      }
      return null;
    },

    async updateOrganization(
      access: Access,
      fields: AccountFields & { premium?: boolean; smsEnabled?: boolean },
    ): Promise<AccountRow> {
      const { premium, smsEnabled, ...rest } = fields;
      const target = access.target;
      if (target.accountType !== "organization") throw new ApiError(400, ACCOUNT_MESSAGES.typeMismatch);
      const changesFlags =
        (premium !== undefined && premium !== target.premium) ||
        (smsEnabled !== undefined && smsEnabled !== target.smsEnabled);
      if (changesFlags && !actsAbove(access)) throw new ApiError(403, ACCOUNT_MESSAGES.organizationFlags);
      return updateFields(target, rest, {
        ...(premium !== undefined ? { premium } : {}),
        ...(smsEnabled !== undefined ? { smsEnabled } : {}),
      });
    },

    /**
     * Merges a settings change. A partner-controlled flag whose value would change needs
     * mayChangePartnerFlags; sending the current value (or null for an unset flag) is not a change.
     */
    async saveSettings(access: Access, patch: Record<string, unknown>) {
      const current = access.target.settings;
      const unset = (value: unknown) => value === undefined || value === null;
      const changed = PARTNER_SETTING_KEYS.filter((key) => {
        if (!(key in patch)) return false;
        const next = patch[key];
        return !(unset(next) && unset(current[key])) && next !== current[key];
      });
      if (changed.length > 0 && !mayChangePartnerFlags(access))
        throw new ApiError(403, ACCOUNT_MESSAGES.partnerFlags(changed));
      const merge: Record<string, unknown> = {};
      const remove: string[] = [];
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        if (value === null) remove.push(key);
        else merge[key] = value;
      }
      return repo.mergeSettings(access.target.id, merge, remove);
    },

    async saveSocialLinks(target: AccountRow, links: Record<string, string>, position?: string | null) {
      const socialLinks = Object.fromEntries(Object.entries(links).filter(([, value]) => value !== ""));
      const row = await repo.update(target.id, {
        socialLinks,
        ...(position !== undefined ? { socialLinksPosition: position || null } : {}),
      });
      return { socialLinks: row.socialLinks, socialLinksPosition: row.socialLinksPosition };
    },

    /** Stores a checked image and points details.image at it; the previous upload is removed. */
    async setProfileImage(target: AccountRow, data: Buffer) {
      const type = detectImageType(data);
      if (!type) throw new ApiError(415, ACCOUNT_MESSAGES.imageType);
      const stored = await storage.put("avatars", type.extension, data, type.contentType);
      const row = await repo.updateFields(target.id, {}, { image: stored.url });
      const previous = target.details.image;
      const previousKey = typeof previous === "string" ? storage.keyOf(previous) : null;
      if (previousKey && previousKey !== stored.key) await storage.delete(previousKey);
      return { image: stored.url, account: row };
    },

    async updateUsername(target: AccountRow, username: string): Promise<AccountRow> {
      if (target.username.toLowerCase() === username) {
        return target.username === username ? target : repo.update(target.id, { username });
      }
      if (RESERVED_USERNAMES.has(username)) throw new ApiError(400, ACCOUNT_MESSAGES.usernameReserved);
      if (!(await repo.usernameFree(username))) throw conflict(ACCOUNT_MESSAGES.usernameTaken);
      const row = await repo.setUsername(target.id, username);
      if (!row) throw conflict(ACCOUNT_MESSAGES.usernameTaken);
      return row;
    },

    async publicProfile(username: string): Promise<PublicAccount> {
      const row = await repo.findByUsername(username);
      // An owner may keep the page private (linksConfig.published false, see the profiles module).
      const linksConfig = row?.details.linksConfig as { published?: unknown } | undefined;
      if (!row || row.disabledAt || linksConfig?.published === false)
        throw notFound(ACCOUNT_MESSAGES.profileNotFound);
      const image = row.details.image;
      return {
        username: row.username,
        accountType: row.accountType,
        displayName: displayNameOf(row),
        details: { image: typeof image === "string" ? image : null },
        socialLinks: row.socialLinks,
        socialLinksPosition: row.socialLinksPosition,
        switchboardPhoneNumber: row.switchboardPhoneNumber,
      };
    },

    /** Super admin: enable or disable an account by username. */
    async setEnabled(username: string, enabled: boolean, why: { reason?: string; details?: string } = {}) {
      const row = await repo.findByUsername(username);
      if (!row) throw notFound(MESSAGES.notFound);
      await repo.update(
        row.id,
        enabled
          ? { disabledAt: null, disabledReason: null, disabledDetails: null }
          : {
              disabledAt: new Date(),
              disabledReason: why.reason ?? null,
              disabledDetails: why.details ?? null,
            },
      );
      return { success: true as const, message: enabled ? ENABLE_MESSAGE : DISABLE_MESSAGE };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
