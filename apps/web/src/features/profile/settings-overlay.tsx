import { Avatar, Button, Divider, Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { accountTypeLabel } from "../../lib/account-path.ts";
import { useAccountState } from "../../lib/account-state.ts";
import { viewingAsLabel } from "../../lib/viewing-as-label.ts";
import type { OverlayName } from "../../overlays/overlay-names.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";

function detail(details: Record<string, unknown>, key: string): string | null {
  const value = details[key];
  return typeof value === "string" && value.trim() ? value : null;
}

function Row({
  label,
  value,
  edit,
  from,
  allowed = true,
}: {
  label: string;
  value: ReactNode;
  edit?: OverlayName;
  from: OverlayName;
  allowed?: boolean;
}) {
  const overlays = useOverlays();
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text size="sm" style={{ overflowWrap: "anywhere" }}>
          {value}
        </Text>
      </Stack>
      {edit && allowed ? (
        <Button
          size="compact-sm"
          variant="subtle"
          onClick={() => overlays.switch(from, edit)}
          aria-label={`Edit ${label.toLowerCase()}`}
        >
          Edit
        </Button>
      ) : null}
    </Group>
  );
}

/** `?settings`: the signed-in person and the account in view, each part with its edit overlay. */
export function SettingsOverlay({ name, close }: OverlayComponentProps) {
  const { view, viewingAs, logout } = useAccountState();
  const overlays = useOverlays();
  const { account, user, permissions } = view;
  const canEdit = permissions.canEditOrg;
  const image = detail(account.details, "image");
  const links = Object.entries(account.socialLinks);
  return (
    <Stack gap="md">
      <Title order={3} size="h5">
        You
      </Title>
      <Row label="E-mail" value={user.email ?? "None yet"} edit="editEmail" from={name} />
      <Row label="Phone" value={user.phoneNumber ?? "None"} from={name} />
      <Divider />
      <Group justify="space-between">
        <Title order={3} size="h5">
          {account.displayName} · {accountTypeLabel(account.accountType)}
        </Title>
      </Group>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm">
          <Avatar src={image} radius="xl" size="lg" color="indigo">
            {account.displayName.charAt(0).toUpperCase()}
          </Avatar>
          <Text size="xs" c="dimmed">
            Profile image
          </Text>
        </Group>
        {canEdit ? (
          <Button size="compact-sm" variant="subtle" onClick={() => overlays.switch(name, "editAvatar")}>
            Change
          </Button>
        ) : null}
      </Group>
      <Row
        label="Full name"
        value={detail(account.details, "fullName") ?? user.fullName ?? "—"}
        edit="editFullName"
        from={name}
        allowed={canEdit}
      />
      <Row
        label="Account details"
        value={`${account.displayName}${account.email ? ` · ${account.email}` : ""}`}
        edit="editUserAccount"
        from={name}
        allowed={canEdit}
      />
      <Row label="Username" value={account.username} edit="editSlug" from={name} allowed={canEdit} />
      <Row
        label="Social links"
        value={links.length ? links.map(([network]) => network).join(", ") : "None"}
        edit="editSocial"
        from={name}
        allowed={canEdit}
      />
      <Divider />
      <Group gap="sm">
        {permissions.canManageUsers && account.accountType !== "agent" ? (
          <Button variant="light" onClick={() => overlays.switch(name, "members")}>
            Members
          </Button>
        ) : null}
        {view.allowedViewingAs.length > 1 ? (
          <Button variant="light" onClick={() => overlays.switch(name, "viewAs")}>
            View as ({viewingAsLabel(viewingAs)})
          </Button>
        ) : null}
        <Button
          variant="light"
          color="red"
          onClick={() => {
            close();
            void logout();
          }}
        >
          Log out
        </Button>
        <Button
          variant="subtle"
          color="red"
          onClick={() => {
            close();
            void logout(undefined, { everywhere: true });
          }}
        >
          Sign out everywhere
        </Button>
      </Group>
    </Stack>
  );
}
