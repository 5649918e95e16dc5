import { Avatar, Badge, Group, Stack, Table, Text } from "@mantine/core";
import type { Account } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import type { ReactNode } from "react";
import { accountTypeLabel } from "../../lib/account-path.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";

function imageOf(account: Account): string | null {
  const image = account.details.image;
  return typeof image === "string" && image ? image : null;
}

/** Name, type, status and the main fields of an account (info, takeover and admin overlays). */
export function AccountSummary({ account, extra = [] }: { account: Account; extra?: [string, ReactNode][] }) {
  const times = useTimeFormat();
  const rows: [string, ReactNode][] = [
    ["Username", account.username],
    ["E-mail", account.email ?? "—"],
    ["Phone", account.phoneNumber ? formatPhoneNumber(account.phoneNumber) : "—"],
    ["Created", times.format(account.timestamp, "date")],
    ["Account id", String(account.id)],
    ...(account.externalAccountId
      ? ([["External account id", account.externalAccountId]] as [string, ReactNode][])
      : []),
    ...extra,
  ];
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="nowrap">
        <Avatar src={imageOf(account)} radius="xl" size="lg" color="indigo">
          {account.displayName.charAt(0).toUpperCase()}
        </Avatar>
        <Stack gap={2}>
          <Text fw={600} data-testid="summary-name">
            {account.displayName}
          </Text>
          <Group gap={6}>
            <Badge variant="light" size="sm">
              {accountTypeLabel(account.accountType)}
            </Badge>
            {account.disabled ? (
              <Badge color="red" variant="light" size="sm">
                Disabled
              </Badge>
            ) : (
              <Badge color="teal" variant="light" size="sm">
                Enabled
              </Badge>
            )}
            {account.accountType === "organization" && account.premium ? (
              <Badge variant="light" size="sm">
                Premium
              </Badge>
            ) : null}
          </Group>
        </Stack>
      </Group>
      <Table variant="vertical" layout="fixed" withTableBorder fz="sm">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={150}>{label}</Table.Th>
              <Table.Td style={{ overflowWrap: "anywhere" }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
