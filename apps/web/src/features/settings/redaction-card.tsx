import { Card, Stack, Switch, Text, Title } from "@mantine/core";
import { saveAccountSetting } from "@switchboard/api";
import {
  REDACTION_KIND_NAMES,
  REDACTION_KINDS,
  REDACTION_LABELS,
  type RedactionKind,
  redactionSettingsOf,
} from "@switchboard/core";
import { useMutation } from "@tanstack/react-query";
import { ActionError } from "../../components/query-state.tsx";
import { useAccountState, usePermission } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { toast } from "../../lib/toast.ts";

/**
 * The organisation's redaction (settings.redaction): each kind of personal data, when on, is replaced in
 * stored transcripts, exports, webhooks and call analyses, and silenced in recordings. Shown for an
 * organisation in view; its agents follow it.
 */
export function RedactionCard() {
  const { view, refresh } = useAccountState();
  const canEdit = usePermission("canEditOrg");
  const settings = redactionSettingsOf(view.account.settings.redaction);
  const save = useMutation({
    mutationFn: (next: Record<RedactionKind, boolean>) =>
      apiClient.call(saveAccountSetting, { body: { settings: { redaction: next } } }),
    onSuccess: async () => {
      toast.success("Redaction saved.");
      await refresh();
    },
  });
  return (
    <Card withBorder padding="lg" maw={520}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Redaction of personal data
        </Title>
        <Text size="sm">
          What is switched on is replaced before anything is stored — in transcripts, exports, webhooks and
          call analyses (e.g. <code>{REDACTION_LABELS.cardNumbers}</code>) — and the turns that said it are
          silenced in recordings. The agent sees the replaced text too. Calls and chats already stored are not
          changed.
        </Text>
        {REDACTION_KINDS.map((kind) => (
          <Switch
            key={kind}
            label={REDACTION_KIND_NAMES[kind]}
            description={
              kind === "datesOfBirth" ? "Dates said after “born”, “date of birth”, “DOB”" : undefined
            }
            checked={settings[kind]}
            disabled={!canEdit || save.isPending}
            onChange={(event) => save.mutate({ ...settings, [kind]: event.currentTarget.checked })}
          />
        ))}
        <ActionError error={save.error} />
      </Stack>
    </Card>
  );
}
