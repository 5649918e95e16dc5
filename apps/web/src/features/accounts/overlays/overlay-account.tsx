import type { Account } from "@switchboard/api";
import type { ReactNode } from "react";
import { ErrorState, LoadingState } from "../../../components/query-state.tsx";
import { ACCOUNT_TYPE_MISMATCH } from "../../../lib/account-path.ts";
import { useAccountState } from "../../../lib/account-state.ts";
import type { OverlayName } from "../../../overlays/overlay-names.ts";
import { OVERLAY_ACCOUNT_TYPE, overlayAccountId } from "../account-kinds.ts";
import { useAccountById } from "../api.ts";

/**
 * The account an overlay acts on: its value names the id (`?orgInfo=42`), default the account in view.
 * Renders the loading and error states, and "Account type does not match" when the overlay expects
 * another type (an orgTakeover naming a reseller).
 */
export function WithOverlayAccount({
  name,
  value,
  children,
}: {
  name: OverlayName;
  value: string;
  children: (account: Account) => ReactNode;
}) {
  const { view } = useAccountState();
  const id = overlayAccountId(value) ?? view.account.id;
  const inView = id === view.account.id;
  const query = useAccountById(inView ? null : id);
  const account = inView ? view.account : query.data?.account;
  if (!account) {
    if (query.isError)
      return (
        <ErrorState
          title="The account could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      );
    return <LoadingState label="Loading the account…" />;
  }
  const expected = OVERLAY_ACCOUNT_TYPE[name];
  if (expected && account.accountType !== expected) {
    return <ErrorState title="This account cannot be shown here" error={new Error(ACCOUNT_TYPE_MISMATCH)} />;
  }
  return children(account);
}
