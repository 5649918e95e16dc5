import { Menu, Text } from "@mantine/core";
import IconArrowBackUp from "@tabler/icons-react/dist/esm/icons/IconArrowBackUp.mjs";
import IconEye from "@tabler/icons-react/dist/esm/icons/IconEye.mjs";
import IconLogout from "@tabler/icons-react/dist/esm/icons/IconLogout.mjs";
import IconSearch from "@tabler/icons-react/dist/esm/icons/IconSearch.mjs";
import IconSettings from "@tabler/icons-react/dist/esm/icons/IconSettings.mjs";
import IconUsers from "@tabler/icons-react/dist/esm/icons/IconUsers.mjs";
import { Link } from "react-router";
import { useAccountState } from "../lib/account-state.ts";
import { useOverlays } from "../overlays/use-overlays.tsx";
import { UserMenuButton, userNameOf } from "./user-menu-button.tsx";

/** The user menu: settings, view as, switch account, back to one's own account, log out. */
export function UserMenu() {
  const { view, logout } = useAccountState();
  const overlays = useOverlays();
  const name = userNameOf(view);
  const elsewhere = view.homeAccount !== null && view.account.id !== view.homeAccount.id;
  return (
    <Menu position="bottom-end" width={240} withinPortal defaultOpened>
      <Menu.Target>
        <UserMenuButton name={name} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate="end">
            {name}
          </Text>
          {view.user.email && view.user.email !== name ? (
            <Text size="xs" c="dimmed" truncate="end">
              {view.user.email}
            </Text>
          ) : null}
        </Menu.Label>
        <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => overlays.open("settings")}>
          Settings
        </Menu.Item>
        {view.permissions.canManageUsers && view.account.accountType !== "agent" ? (
          <Menu.Item leftSection={<IconUsers size={16} />} onClick={() => overlays.open("members")}>
            Members
          </Menu.Item>
        ) : null}
        <Menu.Item leftSection={<IconSearch size={16} />} onClick={() => overlays.open("accountSearch")}>
          Switch account
        </Menu.Item>
        {view.allowedViewingAs.length > 1 ? (
          <Menu.Item leftSection={<IconEye size={16} />} onClick={() => overlays.open("viewAs")}>
            View as…
          </Menu.Item>
        ) : null}
        {elsewhere ? (
          <Menu.Item leftSection={<IconArrowBackUp size={16} />} component={Link} to="/app">
            Back to my account
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={() => void logout()}>
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
