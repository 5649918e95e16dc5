import { Stack, Table, Text } from "@mantine/core";
import { useAccountInView } from "../lib/account-context.ts";
import { describeAccount } from "../lib/account-path.ts";
import { useOptionalAccountState } from "../lib/account-state.ts";
import { APP_VERSION } from "../lib/build-info.ts";

/** `?info`: what Switchboard is, the account in view and the version. */
export function InfoOverlay() {
  const account = useAccountInView();
  const loaded = useOptionalAccountState()?.view.account;
  return (
    <Stack gap="md">
      <Text>
        Switchboard lets you build, test, publish and operate AI agents that answer and place phone calls and
        text messages, with phone numbers, an inbox, contacts, call logs, a knowledge base and billing around
        them.
      </Text>
      <Table variant="vertical" layout="fixed" withTableBorder>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={160}>Account in view</Table.Th>
            <Table.Td>
              {loaded ? `${loaded.displayName} · ` : ""}
              {account ? describeAccount(account) : "Your own account"}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Version</Table.Th>
            <Table.Td>{APP_VERSION}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
