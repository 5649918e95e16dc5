import { Badge, Group, Stack, Text, UnstyledButton } from "@mantine/core";
import IconSelector from "@tabler/icons-react/dist/esm/icons/IconSelector.mjs";
import { lazy, Suspense, useState } from "react";
import { accountTypeLabel } from "../lib/account-path.ts";
import { useAccountState, useOptionalAccountState } from "../lib/account-state.ts";
import type { AccountView } from "../lib/shell-api.ts";
import { viewingAsLabel } from "../lib/viewing-as-label.ts";
import { useOverlays } from "../overlays/use-overlays.tsx";
import { UserMenuButton, userNameOf } from "./user-menu-button.tsx";

/** The account in view (name and type); opens the account search to switch to another. */
export function AccountSwitcher() {
  const state = useOptionalAccountState();
  const overlays = useOverlays();
  if (!state) return null;
  const { account } = state.view;
  return (
    <UnstyledButton
      onClick={() => overlays.open("accountSearch")}
      // Named by what it shows (WCAG 2.5.3, label in name); what it does is its description and popup.
      title="Switch account"
      aria-haspopup="dialog"
      data-testid="account-in-view"
      px="xs"
      py={4}
      style={{ borderRadius: "var(--mantine-radius-sm)", minWidth: 0 }}
    >
      <Group gap={6} wrap="nowrap">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate="end" data-testid="account-name">
            {account.displayName}
          </Text>
          <Text size="xs" c="dimmed" truncate="end" data-testid="account-type">
            {accountTypeLabel(account.accountType)}
          </Text>
        </Stack>
        <IconSelector size={16} stroke={1.6} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

/** A badge while someone acts for another account or views as another role. */
/** Ranks above an organisation's people: they may act on behalf of the accounts below them. */
const HIGHER_RANKS = new Set(["superAdmin", "partner", "reseller"]);

/**
 * Whether the header says "Viewing as …": only when a higher level acts on behalf of a lower one — on an
 * account below its own, or on its own account in a lower role than its real one (a super admin viewing as
 * owner). An owner or admin on their own organisation is just themselves: no badge.
 */
export function showsViewingBadge(
  view: Pick<AccountView, "account" | "homeAccount" | "viewingAs" | "allowedViewingAs">,
): boolean {
  const elsewhere = view.homeAccount !== null && view.account.id !== view.homeAccount.id;
  if (elsewhere) return true;
  const realRank = view.allowedViewingAs[0];
  return realRank !== undefined && HIGHER_RANKS.has(realRank) && view.viewingAs !== realRank;
}

export function ViewingBadge() {
  const state = useOptionalAccountState();
  if (!state) return null;
  const { view } = state;
  const elsewhere = view.homeAccount !== null && view.account.id !== view.homeAccount.id;
  if (!showsViewingBadge(view)) return null;
  return (
    <Badge variant="light" color={elsewhere ? "orange" : "gray"} visibleFrom="sm" data-testid="viewing-as">
      {`Viewing as ${viewingAsLabel(view.viewingAs)}`}
    </Badge>
  );
}

const loadUserMenu = () => import("./user-menu.tsx");
const LazyUserMenu = lazy(async () => ({ default: (await loadUserMenu()).UserMenu }));

/**
 * The user menu (settings, members, switch account, view as, back to one's own account, log out). The
 * dropdown and its positioning library are a chunk of their own, loaded on first hover or click.
 */
export function UserMenu() {
  const { view } = useAccountState();
  const [wanted, setWanted] = useState(false);
  const name = userNameOf(view);
  const fallback = <UserMenuButton name={name} />;
  if (!wanted) {
    return (
      <UserMenuButton
        name={name}
        onPointerEnter={() => void loadUserMenu()}
        onClick={() => setWanted(true)}
      />
    );
  }
  return (
    <Suspense fallback={fallback}>
      <LazyUserMenu />
    </Suspense>
  );
}
