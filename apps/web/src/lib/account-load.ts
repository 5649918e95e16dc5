import { deriveRole, type RealRank, restoreViewingAs, type ViewingAs } from "@switchboard/core";
import type { AccountView } from "./shell-api.ts";
import { errorStatus } from "./shell-api.ts";

/**
 * What a failed account load means (spec §4.5 and §8): an answer of the server refusing the account
 * (401, 403, 404, any other 4xx, or success false) logs the user out; a network failure or a server error
 * (5xx) is worth retrying and keeps the session.
 */
export function accountLoadFailure(error: unknown): "logout" | "retry" {
  const status = errorStatus(error);
  if (status === 0 || status >= 500) return "retry";
  return "logout";
}

/** The caller's real rank, from the account answer: super admin flag and the role of their own account. */
export function realRankOf(view: Pick<AccountView, "user" | "homeAccount" | "role">): RealRank {
  const home = view.homeAccount;
  return {
    superAdmin: view.user.superAdmin,
    role: home
      ? deriveRole({
          accountType: home.accountType,
          organizationId: home.organizationId,
          partnerId: home.partnerId,
          resellerId: home.resellerId,
          timestamp: home.timestamp,
        })
      : "organization",
    // As the server decides: only an organisation's owner holds the owner's view.
    isOwner: view.role === "owner" && home?.accountType === "organization",
  };
}

/**
 * The viewing-as value to keep after the account loaded: the stored one only if the real rank permits it
 * (core's restoreViewingAs), otherwise the rank's default. Null when nothing needs to be written.
 */
export function viewingAsToStore(
  stored: ViewingAs | null,
  view: Pick<AccountView, "user" | "homeAccount" | "role">,
): ViewingAs | null {
  if (stored === null) return null;
  const restored = restoreViewingAs(stored, realRankOf(view));
  return restored === stored ? null : restored;
}
