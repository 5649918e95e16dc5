import { Button, Card, Group, Select, Stack, Text, Title } from "@mantine/core";
import { saveAccountSetting } from "@switchboard/api";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ActionError } from "../../components/query-state.tsx";
import { useAccountState, usePermission } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { browserTimeZone } from "../../lib/time-format.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";

const ZONES: string[] = (() => {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
})();

/**
 * The account's time zone (settings.timeZone): every date and time in the app is shown in it, followed by
 * its abbreviation where it is not this browser's zone (issue 32 item 10).
 */
export function TimeZoneCard() {
  const { view, refresh } = useAccountState();
  const canEdit = usePermission("canEditOrg");
  const { accountZone, zone } = useTimeFormat();
  const [chosen, setChosen] = useState<string | null>(accountZone);
  const save = useMutation({
    mutationFn: (timeZone: string | null) =>
      apiClient.call(saveAccountSetting, { body: { settings: { timeZone } } }),
    onSuccess: async () => {
      toast.success("Time zone saved.");
      await refresh();
    },
  });
  const own = typeof view.account.settings.timeZone === "string";
  // Not its own: the zone of the account above it (an agent's organisation), else the signed-in person's.
  const whose =
    accountZone === view.timeZone
      ? view.account.accountType === "agent"
        ? " (its organisation's zone)"
        : " (the zone of the account above it)"
      : " (your own account's zone)";
  const data = ZONES.includes(zone) ? ZONES : [zone, ...ZONES];
  return (
    <Card withBorder padding="lg" maw={520}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Time zone
        </Title>
        <Text size="sm" data-testid="account-time-zone">
          Dates and times are shown in {zone}
          {accountZone ? (own ? "" : whose) : " (this browser's zone)"}.
          {zone !== browserTimeZone() ? " Times are followed by the zone's abbreviation." : ""}
        </Text>
        <Group align="end" gap="xs">
          <Select
            label="Account time zone"
            data={data}
            value={chosen ?? zone}
            onChange={setChosen}
            searchable
            disabled={!canEdit || save.isPending}
            w={280}
          />
          <Button
            variant="light"
            disabled={!canEdit || !chosen || chosen === accountZone}
            loading={save.isPending}
            onClick={() => save.mutate(chosen)}
          >
            Save time zone
          </Button>
        </Group>
        <ActionError error={save.error} />
      </Stack>
    </Card>
  );
}
