import { useMemo } from "react";
import { useOptionalAccountState } from "./account-state.ts";
import type { AccountView } from "./shell-api.ts";
import { displayTimeZone, formatInstant, knownTimeZone, type TimeStyle } from "./time-format.ts";

/**
 * The account's time zone: the zone the server answers for the account in view (`timeZone`: its own
 * `settings.timeZone`, set at sign-up from the browser's, else its nearest ancestor's, so an agent reads in
 * its organisation's zone whoever views it), else the account's own setting, else that of the signed-in
 * person's own account. Null when none names a zone Intl knows.
 */
export function accountTimeZone(
  view: Pick<AccountView, "account" | "homeAccount" | "timeZone"> | null | undefined,
) {
  if (!view) return null;
  return (
    knownTimeZone(view.timeZone) ??
    knownTimeZone(zoneSetting(view.account)) ??
    knownTimeZone(zoneSetting(view.homeAccount))
  );
}

function zoneSetting(account: { settings: Record<string, unknown> } | null | undefined): string | null {
  const zone = account?.settings.timeZone;
  return typeof zone === "string" ? zone : null;
}

export type TimeFormat = {
  /** The account's zone, or null (the browser's is used). */
  accountZone: string | null;
  /** The zone times are shown in. */
  zone: string;
  format: (at: number | Date | string, style: TimeStyle) => string;
};

/** Formats instants in the account's zone (outside the account layer: the browser's). */
export function useTimeFormat(): TimeFormat {
  const view = useOptionalAccountState()?.view;
  const accountZone = accountTimeZone(view);
  return useMemo(
    () => ({
      accountZone,
      zone: displayTimeZone({ account: accountZone }),
      format: (at, style) => formatInstant(at, style, { account: accountZone }),
    }),
    [accountZone],
  );
}
