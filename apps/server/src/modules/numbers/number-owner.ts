import type { Database } from "../../db/client.ts";
import { createNumbersRepository, type NumbersRepository } from "./numbers.repository.ts";

/**
 * The agent a dialled number reaches (a SIP request's user part, the sandbox phone's number): a live number
 * of ours, compared in E.164 (ten digits are a US number); null for anything else.
 */
export async function agentForNumber(
  repo: Pick<NumbersRepository, "findLive">,
  user: string,
): Promise<{ agentAccountId: number; orgId: number } | null> {
  const digits = user.replace(/[^\d+]/g, "");
  if (!/^\+?\d{7,15}$/.test(digits)) return null;
  const e164 = digits.startsWith("+") ? digits : digits.length === 10 ? `+1${digits}` : `+${digits}`;
  const row = await repo.findLive(e164);
  if (!row?.agentAccountId) return null;
  return { agentAccountId: row.agentAccountId, orgId: row.orgId };
}

/** The organisation holding a dialled number, or null (the SIP settings file captures of calls under it). */
export function numberOrgLookup(db: Database): (user: string) => Promise<number | null> {
  const repo = createNumbersRepository(db);
  return async (user) => (await agentForNumber(repo, user))?.orgId ?? null;
}
