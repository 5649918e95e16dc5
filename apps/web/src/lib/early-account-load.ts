import { type AccountView, fetchAccountView } from "./shell-api.ts";

/**
 * The account load of a signed-in visit, started by the /app route's loader while the shell's and the
 * page's chunks download, instead of after them (issue #23: no request chains before the first paint).
 * The account layer takes it once, for the same token, account and viewing-as value; anything else, or a
 * load older than a few seconds, is fetched afresh.
 */
type EarlyLoad = {
  key: string;
  startedAt: number;
  promise: Promise<AccountView>;
};

const MAX_AGE_MS = 10_000;
let early: EarlyLoad | null = null;

type AccountLoadInput = { token: string; targetAccountId: number | null; viewingAs: string | null };

const keyOf = (input: AccountLoadInput) =>
  JSON.stringify([input.token, input.targetAccountId, input.viewingAs]);

export function startEarlyAccountLoad(input: AccountLoadInput, now = Date.now()): void {
  const key = keyOf(input);
  if (early && early.key === key && now - early.startedAt < MAX_AGE_MS) return;
  const promise = fetchAccountView(input);
  // Unhandled until the account layer takes it (it reports a failure as its own), or if it never does.
  promise.catch(() => {});
  early = { key, startedAt: now, promise };
}

/** The early load for this input, once; null when there is none (or it is stale). */
export function takeEarlyAccountLoad(input: AccountLoadInput, now = Date.now()): Promise<AccountView> | null {
  const found = early;
  early = null;
  if (!found || found.key !== keyOf(input) || now - found.startedAt >= MAX_AGE_MS) return null;
  return found.promise;
}
