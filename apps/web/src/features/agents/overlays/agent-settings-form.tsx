import { Button, Group, Stack, TextInput } from "@mantine/core";
import { type Account, updateAccount } from "@switchboard/api";
import { useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../../components/query-state.tsx";
import { SavedNote } from "../../../components/saved-note.tsx";
import { bodySchemaOf, useSchemaForm } from "../../../lib/schema-form.ts";
import { toast } from "../../../lib/toast.ts";
import { useAccountById } from "../../accounts/api.ts";
import { useUpdateAgentAccount } from "../api.ts";

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function SettingsForm({ account, onSaved }: { account: Account; onSaved?: () => void }) {
  const save = useUpdateAgentAccount(account.id);
  const form = useSchemaForm(
    bodySchemaOf(updateAccount),
    {
      name: account.displayName,
      accountName: text(account.details.accountName),
      email: account.email ?? "",
      phoneNumber: account.phoneNumber ?? "",
      externalAccountId: account.externalAccountId ?? "",
    },
    { required: ["name"] },
  );
  // The saved state stays beside the button until the form is edited again.
  const [saved, setSaved] = useState<{ at: number; values: string } | null>(null);
  const savedAt = saved && saved.values === JSON.stringify(form.values) ? saved.at : null;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = form.parse({}, {});
    if (!body) return;
    // Emptied fields are cleared, not left as they were.
    const cleared = Object.fromEntries(
      (["email", "phoneNumber", "externalAccountId"] as const)
        .filter((key) => !form.values[key].trim())
        .map((key) => [key, null]),
    );
    save.mutate(
      { ...body, ...cleared, accountName: form.values.accountName.trim() },
      {
        onSuccess: () => {
          toast.success("Agent settings saved.");
          setSaved({ at: Date.now(), values: JSON.stringify(form.values) });
          onSaved?.();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Agent name" required {...form.field("name")} />
        <TextInput label="Account name" {...form.field("accountName")} />
        <TextInput label="E-mail" type="email" {...form.field("email")} />
        <TextInput label="Phone number" type="tel" {...form.field("phoneNumber")} />
        <TextInput label="External account id" {...form.field("externalAccountId")} />
        <ActionError error={save.error} />
        <Group justify="flex-end">
          <SavedNote at={savedAt} />
          <Button type="submit" loading={save.isPending}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The agent account's own fields (name, e-mail, phone, external id): agentSettings and the editor's panel. */
export function AgentSettingsForm({ agentId, onSaved }: { agentId: number; onSaved?: () => void }) {
  const agent = useAccountById(agentId);
  if (agent.isError)
    return (
      <ErrorState
        title="The agent could not be loaded"
        error={agent.error}
        onRetry={() => void agent.refetch()}
      />
    );
  if (!agent.data) return <LoadingState label="Loading the agent…" />;
  return <SettingsForm account={agent.data.account} onSaved={onSaved} />;
}
