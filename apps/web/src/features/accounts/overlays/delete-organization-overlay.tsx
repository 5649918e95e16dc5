import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { useNavigate } from "react-router";
import { ActionError } from "../../../components/query-state.tsx";
import { useAccountState } from "../../../lib/account-state.ts";
import { toast } from "../../../lib/toast.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { useDeleteOrganization } from "../api.ts";
import { WithOverlayAccount } from "./overlay-account.tsx";

/** `?deleteOrganization=<id>`: delete an organisation and its agent accounts, after typing its name. */
export function DeleteOrganizationOverlay({ name, value, close }: OverlayComponentProps) {
  const { view } = useAccountState();
  const navigate = useNavigate();
  const remove = useDeleteOrganization();
  const [typed, setTyped] = useState("");
  if (!view.permissions.canDeleteOrg)
    return <Text>Deleting organizations is not available for the account in view.</Text>;
  return (
    <WithOverlayAccount name={name} value={value}>
      {(account) => {
        const confirmed = typed.trim() === account.displayName.trim();
        const submit = () =>
          remove.mutate(account.id, {
            onSuccess: (answer) => {
              toast.success(answer.message);
              if (account.id === view.account.id) navigate("/app");
              else close();
            },
          });
        return (
          <Stack gap="md">
            <Text size="sm">
              Delete <b>{account.displayName}</b> and its agent accounts? Its people can no longer sign in to
              it.
            </Text>
            <TextInput
              label={`Type “${account.displayName}” to confirm`}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              data-autofocus
            />
            <ActionError error={remove.error} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={remove.isPending}>
                Cancel
              </Button>
              <Button color="red" disabled={!confirmed} loading={remove.isPending} onClick={submit}>
                Delete organization
              </Button>
            </Group>
          </Stack>
        );
      }}
    </WithOverlayAccount>
  );
}
