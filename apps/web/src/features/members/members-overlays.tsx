import { Badge, Button, Checkbox, Group, Stack, Table, Text, TextInput } from "@mantine/core";
import { inviteAdminUser } from "@switchboard/api";
import { type FormEvent, useState } from "react";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAccountState } from "../../lib/account-state.ts";
import { bodySchemaOf, useSchemaForm } from "../../lib/schema-form.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useInviteMember, useMembers, useRemoveMember } from "./api.ts";

function NotAllowed() {
  return <Text>Members are not available for the account in view.</Text>;
}

/** `?members`: the owners and admins of the account in view; invite and remove (canManageUsers). */
export function MembersOverlay({ name }: OverlayComponentProps) {
  const times = useTimeFormat();
  const { view } = useAccountState();
  const overlays = useOverlays();
  const members = useMembers();
  if (!view.permissions.canManageUsers || view.account.accountType === "agent") return <NotAllowed />;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          People who can sign in to {view.account.displayName}.
        </Text>
        {view.permissions.canInviteUsers ? (
          <Button onClick={() => overlays.switch(name, "memberInvite")}>Invite</Button>
        ) : null}
      </Group>
      {members.isPending ? (
        <LoadingState label="Loading members…" />
      ) : members.isError ? (
        <ErrorState
          title="Members could not be loaded"
          error={members.error}
          onRetry={() => void members.refetch()}
        />
      ) : members.data.users.length === 0 ? (
        <EmptyState>No members yet.</EmptyState>
      ) : (
        <Table fz="sm" aria-label="Members" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Person</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Joined</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.data.users.map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td>
                  <Stack gap={0}>
                    <Text size="sm" fw={500}>
                      {user.fullName ?? user.email ?? `User ${user.id}`}
                    </Text>
                    {user.fullName && user.email ? (
                      <Text size="xs" c="dimmed">
                        {user.email}
                      </Text>
                    ) : null}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={user.role === "owner" ? "indigo" : "gray"}>
                    {user.role === "owner" ? "Owner" : "Admin"}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {user.invited ? (
                    // Until the first sign-in the person has only been invited (issue #23 item 11).
                    <Group gap={6} wrap="nowrap">
                      <Badge variant="outline" color="yellow">
                        Invited
                      </Badge>
                      <Text size="xs" c="dimmed">
                        {times.format(user.timestamp, "date")}
                      </Text>
                    </Group>
                  ) : (
                    times.format(user.timestamp, "date")
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  {user.id !== view.user.id ? (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      onClick={() => overlays.switch(name, "memberDelete", String(user.id))}
                      aria-label={`Remove ${user.email ?? user.fullName ?? user.id}`}
                    >
                      Remove
                    </Button>
                  ) : (
                    <Text size="xs" c="dimmed">
                      You
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** `?memberInvite`: invite a person by e-mail as admin, or as owner (isOwner). */
export function MemberInviteOverlay({ name }: OverlayComponentProps) {
  const { view } = useAccountState();
  const overlays = useOverlays();
  const form = useSchemaForm(bodySchemaOf(inviteAdminUser), { email: "" }, { required: ["email"] });
  const [isOwner, setIsOwner] = useState(false);
  const invite = useInviteMember();
  if (!view.permissions.canInviteUsers || view.account.accountType === "agent") return <NotAllowed />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.parse({ isOwner });
    if (!body) return;
    invite.mutate(
      { email: body.email, isOwner: body.isOwner },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          overlays.switch(name, "members");
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          They receive an e-mail with a link that signs them in to {view.account.displayName}.
        </Text>
        <TextInput label="E-mail address" type="email" required data-autofocus {...form.field("email")} />
        <Checkbox
          label="Make them an owner"
          description="Owners also see billing and can delete the organization."
          checked={isOwner}
          onChange={(event) => setIsOwner(event.currentTarget.checked)}
        />
        <ActionError error={invite.error} />
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            onClick={() => overlays.switch(name, "members")}
            disabled={invite.isPending}
          >
            Back
          </Button>
          <Button type="submit" loading={invite.isPending}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** `?memberDelete=<userId>`: remove a person from the account in view. */
export function MemberDeleteOverlay({ name, value }: OverlayComponentProps) {
  const { view } = useAccountState();
  const overlays = useOverlays();
  const members = useMembers();
  const remove = useRemoveMember();
  if (!view.permissions.canManageUsers || view.account.accountType === "agent") return <NotAllowed />;
  if (members.isPending) return <LoadingState label="Loading members…" />;
  if (members.isError)
    return (
      <ErrorState
        title="Members could not be loaded"
        error={members.error}
        onRetry={() => void members.refetch()}
      />
    );
  const member = members.data.users.find((user) => String(user.id) === value);
  if (!member) return <EmptyState>This person is not a member of {view.account.displayName}.</EmptyState>;
  const label = member.email ?? member.fullName ?? `User ${member.id}`;
  return (
    <Stack gap="md">
      <Text size="sm">
        Remove <b>{label}</b> ({member.role}) from {view.account.displayName}? They are signed out of it at
        once.
      </Text>
      <ActionError error={remove.error} />
      <Group justify="flex-end" gap="sm">
        <Button
          variant="default"
          onClick={() => overlays.switch(name, "members")}
          disabled={remove.isPending}
        >
          Cancel
        </Button>
        <Button
          color="red"
          loading={remove.isPending}
          onClick={() =>
            remove.mutate(member.id, {
              onSuccess: (answer) => {
                toast.success(answer.message);
                overlays.switch(name, "members");
              },
            })
          }
        >
          Remove
        </Button>
      </Group>
    </Stack>
  );
}
