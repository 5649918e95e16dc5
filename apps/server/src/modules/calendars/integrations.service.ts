import { CALENDAR_MESSAGES } from "@switchboard/api";
import type { Access } from "../../access/access.ts";
import { badRequest } from "../../api-error.ts";
import { bareKey, type JobNimbusApi, JobNimbusRefused } from "../../providers/integrations/jobnimbus.ts";
import { decryptSecret, encryptSecret, maskSecret } from "../../providers/llm/key-encryption.ts";
import type { CalendarsRepository } from "./calendars.repository.ts";

/** Values of appData kept encrypted and answered masked: keys named like credentials. */
const SECRET_KEY_NAME = /(key|token|secret|password)$/i;
const MAX_APP_DATA_BYTES = 16 * 1024;

type Deps = {
  repo: CalendarsRepository;
  jobNimbus: JobNimbusApi;
  secretKey: string;
  ownerOf: (access: Access) => { id: number };
  now: () => number;
};

type AppData = Record<string, unknown>;

/** Integration settings per account and slug (secrets encrypted), and JobNimbus on top of them. */
export function createIntegrationsService({ repo, jobNimbus, secretKey, ownerOf, now }: Deps) {
  async function read(accountId: number, slug: string) {
    const row = await repo.appData(accountId, slug);
    const secrets: Record<string, string> = row?.secretEncrypted
      ? JSON.parse(decryptSecret(secretKey, row.secretEncrypted))
      : {};
    return { row, secrets };
  }

  function answer(slug: string, data: AppData, secrets: Record<string, string>, updatedAt: Date | null) {
    const masked = Object.fromEntries(
      Object.entries(secrets).map(([key, value]) => [key, maskSecret(value)]),
    );
    return {
      success: true as const,
      slug,
      appData: { ...data, ...masked },
      updatedAt: updatedAt?.getTime() ?? null,
    };
  }

  async function save(accountId: number, slug: string, appData: AppData) {
    if (Buffer.byteLength(JSON.stringify(appData)) > MAX_APP_DATA_BYTES)
      throw badRequest(CALENDAR_MESSAGES.appDataTooLarge);
    const { secrets: stored } = await read(accountId, slug);
    const data: AppData = {};
    const secrets: Record<string, string> = {};
    for (const [key, value] of Object.entries(appData)) {
      if (SECRET_KEY_NAME.test(key) && typeof value === "string") {
        // The masked value the client was shown means "keep what is stored".
        const kept = stored[key];
        if (kept !== undefined && value === maskSecret(kept)) secrets[key] = kept;
        else if (value !== "") secrets[key] = value;
      } else {
        data[key] = value;
      }
    }
    const row = await repo.saveAppData(
      accountId,
      slug,
      data,
      Object.keys(secrets).length > 0 ? encryptSecret(secretKey, JSON.stringify(secrets)) : null,
    );
    return answer(slug, data, secrets, row.updatedAt);
  }

  /** The key to use: the one given, else the saved one. */
  async function jobNimbusKey(accountId: number, authorization: string | undefined): Promise<string> {
    if (authorization) return bareKey(authorization);
    const { secrets } = await read(accountId, "jobnimbus");
    if (!secrets.apiKey) throw badRequest("authorization: paste your JobNimbus API key.");
    return secrets.apiKey;
  }

  function refused(error: unknown) {
    if (error instanceof JobNimbusRefused)
      return { valid: false, status: error.status, message: error.message };
    throw error;
  }

  return {
    async get(access: Access, slug: string) {
      const { row, secrets } = await read(ownerOf(access).id, slug);
      return answer(slug, row?.data ?? {}, secrets, row?.updatedAt ?? null);
    },

    save: (access: Access, slug: string, appData: AppData) => save(ownerOf(access).id, slug, appData),

    async jobNimbusSettings(access: Access, authorization: string | undefined) {
      const accountId = ownerOf(access).id;
      const apiKey = await jobNimbusKey(accountId, authorization);
      try {
        const { workflows } = await jobNimbus.settings(apiKey);
        const { row } = await read(accountId, "jobnimbus");
        await save(accountId, "jobnimbus", {
          ...(row?.data ?? {}),
          apiKey,
          workflows: workflows.map((w) => w.name),
          connectedAt: now(),
        });
        return { valid: true, workflows };
      } catch (error) {
        return refused(error);
      }
    },

    async jobNimbusTeam(access: Access, authorization: string | undefined, targetDate: string | undefined) {
      const apiKey = await jobNimbusKey(ownerOf(access).id, authorization);
      const day = targetDate ?? new Date(now()).toISOString().slice(0, 10);
      const dayStart = new Date(`${day}T00:00:00.000Z`);
      if (Number.isNaN(dayStart.getTime())) throw badRequest("targetDate: a date such as 2026-11-24");
      try {
        const team = await jobNimbus.team(apiKey, dayStart, new Date(dayStart.getTime() + 86_400_000));
        return { valid: true, targetDate: day, team };
      } catch (error) {
        return refused(error);
      }
    },
  };
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
