import { Avatar, Badge, Group, Stack, Text, UnstyledButton } from "@mantine/core";
import IconSelector from "@tabler/icons-react/dist/esm/icons/IconSelector.mjs";
import { forwardRef, lazy, Suspense, useState } from "react";
import { accountTypeLabel } from "../lib/account-path.ts";
import { useOverlays } from "../overlays/use-overlays.tsx";
import { useAccountState, useOptionalAccountState } from "./account-state.ts";

const VIEWING_AS_LABELS: Record<string, string> = {
  superAdmin: "Super admin",
  partner: "Partner",
  reseller: "Reseller",
  owner: "Owner",
  admin: "Admin",
};

export function viewingAsLabel(value: string): string {
  return VIEWING_AS_LABELS[value] ?? value;
}

export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((word) => word.charAt(0).toUpperCase())
      .join("") || "?"
  );
}

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
export function ViewingBadge() {
  const state = useOptionalAccountState();
  if (!state) return null;
  const { view } = state;
  const elsewhere = view.homeAccount !== null && view.account.id !== view.homeAccount.id;
  if (!elsewhere && !view.actingAsHigherRole && view.allowedViewingAs.length <= 1) return null;
  return (
    <Badge variant="light" color={elsewhere ? "orange" : "gray"} visibleFrom="sm" data-testid="viewing-as">
      {`Viewing as ${viewingAsLabel(view.viewingAs)}`}
    </Badge>
  );
}

/** The name the user menu shows for the signed-in person. */
export function userNameOf(view: ReturnType<typeof useAccountState>["view"]): string {
  return view.user.fullName || view.user.email || view.homeAccount?.displayName || "You";
}

/** The avatar button that opens the user menu (also the menu's target once its chunk has loaded). */
export const UserMenuButton = forwardRef<
  HTMLButtonElement,
  { name: string; onClick?: () => void; onPointerEnter?: () => void }
>(function UserMenuButton({ name, ...props }, ref) {
  return (
    // The initials shown are part of the accessible name (WCAG 2.5.3, label in name).
    <UnstyledButton ref={ref} aria-label={`${initialsOf(name)}, user menu`} title={name} {...props}>
      <Avatar radius="xl" size={34} color="indigo">
        {initialsOf(name)}
      </Avatar>
    </UnstyledButton>
  );
});

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
