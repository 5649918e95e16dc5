import {
  AppShell,
  Box,
  Burger,
  Center,
  Divider,
  Group,
  Image,
  Loader,
  NavLink,
  Text,
  UnstyledButton,
} from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { useDeferredValue, useEffect, useState } from "react";
import { Link, Outlet, useLocation } from "react-router";
import { HelpButton } from "../components/help-button.tsx";
import { ThemeToggle } from "../components/theme-toggle.tsx";
import { NotificationBell } from "../features/notifications/notification-bell.tsx";
import { featureForSegments, visibleFeatures } from "../features/registry.ts";
import { SearchButton } from "../features/search/search-button.tsx";
import { useAppPath } from "../lib/account-context.ts";
import { appPath } from "../lib/account-path.ts";
import { useOptionalAccountState } from "../lib/account-state.ts";
import { minWidthQuery } from "../lib/breakpoints.ts";
import { useEmbedded } from "../lib/environment.tsx";
import { brandName, useHostProfile } from "../lib/host-profile.ts";
import { OverlayHost } from "../overlays/overlay-host.tsx";
import { AccountSwitcher, UserMenu, ViewingBadge } from "./header-account.tsx";

const NAVBAR_WIDTH = 240;
const NAVBAR_MINIMISED_WIDTH = 68;
const HEADER_HEIGHT = 56;

function Navigation({ minimised, onNavigate }: { minimised: boolean; onNavigate: () => void }) {
  const { accountPrefix, rest } = useAppPath();
  const state = useOptionalAccountState();
  const current = featureForSegments(rest);
  const features = state
    ? visibleFeatures({ permissions: state.view.permissions, accountType: state.view.account.accountType })
    : [];
  return (
    // A plain scrolling box: Mantine's ScrollArea measured itself on every render.
    <Box style={{ flex: 1, minHeight: 0, overflowY: "auto", scrollbarWidth: "thin" }}>
      {features.map(({ slug, label, icon: Icon }) => {
        const active = current === slug;
        return (
          <NavLink
            key={slug}
            component={Link}
            to={appPath(accountPrefix, slug)}
            onClick={onNavigate}
            active={active}
            aria-current={active ? "page" : undefined}
            aria-label={minimised ? label : undefined}
            title={minimised ? label : undefined}
            label={minimised ? null : label}
            leftSection={<Icon size={20} stroke={1.6} />}
            styles={
              minimised ? { section: { marginInlineEnd: 0 }, root: { justifyContent: "center" } } : undefined
            }
          />
        );
      })}
    </Box>
  );
}

/**
 * The /app shell: header (product name, theme toggle, help) and the sidebar of product areas. Under 768 px
 * the sidebar folds behind a burger; on wide screens the settings path minimises it; embedded pages
 * (`appEmbed`, cross-origin frame) show neither.
 */
export function AppLayout() {
  const embedded = useEmbedded();
  const { pathname } = useLocation();
  const { accountPrefix, rest } = useAppPath();
  const host = useHostProfile();
  const switching = useOptionalAccountState()?.switching ?? false;
  const [navOpened, nav] = useDisclosure(false);
  const wide = useMediaQuery(minWidthQuery("md"), false, { getInitialValueInEffect: false });
  const minimised = Boolean(wide) && rest[0] === "settings";

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the mobile sidebar whenever the path changes.
  useEffect(() => {
    nav.close();
  }, [pathname]);

  // On a phone the sidebar is folded away: its links are drawn when it first opens.
  const sidebarShown = useMediaQuery(minWidthQuery("sm"), false, { getInitialValueInEffect: false });
  const [navDrawn, setNavDrawn] = useState(false);
  if (navOpened && !navDrawn) setNavDrawn(true);
  // The shell commits first and the page in the next step: two shorter tasks instead of one long one
  // while a signed-in page loads (issue #23: total blocking time).
  const pageStep = useDeferredValue(true, false);

  const main = switching ? (
    <Center py="xl">
      <Loader size="sm" role="status" aria-label="Loading the account" />
    </Center>
  ) : pageStep ? (
    <Outlet />
  ) : null;

  if (embedded) {
    return (
      <AppShell padding="md">
        <AppShell.Main>{main}</AppShell.Main>
        <OverlayHost />
      </AppShell>
    );
  }

  return (
    <AppShell
      padding="md"
      header={{ height: HEADER_HEIGHT }}
      navbar={{
        width: minimised ? NAVBAR_MINIMISED_WIDTH : NAVBAR_WIDTH,
        breakpoint: "sm",
        collapsed: { mobile: !navOpened },
      }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          {/* The account's side gives way (its name is cut with an ellipsis); the buttons always fit. */}
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger
              opened={navOpened}
              onClick={nav.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Open navigation"
              aria-expanded={navOpened}
            />
            <UnstyledButton component={Link} to={accountPrefix} aria-label={`${brandName(host)} home`}>
              <Group gap={8} wrap="nowrap">
                {host.image ? <Image src={host.image} alt="" h={28} w="auto" fit="contain" /> : null}
                <Text fw={700} size="lg" visibleFrom="xs">
                  {brandName(host)}
                </Text>
              </Group>
            </UnstyledButton>
            <Divider orientation="vertical" my={12} visibleFrom="xs" />
            <AccountSwitcher />
            <ViewingBadge />
          </Group>
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            <SearchButton />
            <NotificationBell />
            <ThemeToggle />
            <HelpButton />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Product areas" data-minimised={minimised || undefined}>
        {sidebarShown || navDrawn ? <Navigation minimised={minimised} onNavigate={nav.close} /> : null}
      </AppShell.Navbar>
      <AppShell.Main>{main}</AppShell.Main>
      <OverlayHost />
    </AppShell>
  );
}
