import { Button, Card, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { getModelSettings, LLM_PROVIDERS, type ModelSettings, saveModelSettings } from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { SavedNote } from "../../components/saved-note.tsx";
import { useAccountKey, usePermission } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { toast } from "../../lib/toast.ts";

const PROVIDER_LABELS: Record<(typeof LLM_PROVIDERS)[number] | "default", string> = {
  default: "The deployment's model",
  sandbox: "Sandbox model (offline, no open conversation)",
  openai: "OpenAI",
  "openai-compatible": "OpenAI-compatible endpoint (Ollama, vLLM, Groq, Together…)",
  anthropic: "Anthropic",
};

function ModelForm({
  settings,
  savedAt,
  onSaved,
}: {
  settings: ModelSettings;
  savedAt: number | null;
  onSaved: () => void;
}) {
  const queryClient = useQueryClient();
  const canEdit = usePermission("canEditOrg");
  const [provider, setProvider] = useState<string>(
    settings.source === "organization" ? settings.provider : "default",
  );
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl ?? "");
  const [model, setModel] = useState(settings.model ?? "");
  const [apiKey, setApiKey] = useState("");
  const save = useMutation({
    mutationFn: () =>
      apiClient.call(saveModelSettings, {
        body: {
          provider: provider as (typeof LLM_PROVIDERS)[number] | "default",
          ...(provider === "openai-compatible" ? { baseUrl: baseUrl.trim() || null } : {}),
          ...(provider !== "default" && provider !== "sandbox" ? { model: model.trim() || null } : {}),
          ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
        },
      }),
    onSuccess: async () => {
      setApiKey("");
      toast.success("Model settings saved.");
      onSaved();
      await queryClient.invalidateQueries({ queryKey: ["model-settings"] });
    },
  });
  const external = provider !== "default" && provider !== "sandbox";
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <Text size="sm">
          Now answering: <b data-testid="model-label">{settings.label}</b>
          {settings.source === "organization" ? " (this organization's own)" : " (the deployment's)"}
        </Text>
        <Select
          label="Model provider"
          data={(["default", ...LLM_PROVIDERS] as const).map((value) => ({
            value,
            label: PROVIDER_LABELS[value],
          }))}
          value={provider}
          allowDeselect={false}
          disabled={!canEdit}
          onChange={(value) => setProvider(value ?? "default")}
        />
        {provider === "openai-compatible" ? (
          <TextInput
            label="Base URL"
            placeholder="http://localhost:11434/v1"
            value={baseUrl}
            onChange={(event) => setBaseUrl(event.currentTarget.value)}
          />
        ) : null}
        {external ? (
          <>
            <TextInput
              label="Model"
              placeholder={provider === "anthropic" ? "claude-sonnet-4-5" : "gpt-4o-mini"}
              value={model}
              onChange={(event) => setModel(event.currentTarget.value)}
            />
            <TextInput
              label="API key"
              type="password"
              autoComplete="off"
              description={
                settings.apiKey
                  ? `Stored: ${settings.apiKey}. Leave empty to keep it.`
                  : "Stored encrypted; never shown again."
              }
              value={apiKey}
              onChange={(event) => setApiKey(event.currentTarget.value)}
            />
          </>
        ) : null}
        <ActionError error={save.error} />
        {canEdit ? (
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save model settings
            </Button>
            <SavedNote at={savedAt} />
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}

/** The language model the organisation's agents answer with (its own, else the deployment's). */
export function ModelSettingsCard() {
  const [accountId, viewingAs] = useAccountKey();
  // Held here: the form is remade from the saved settings, and the note must outlive that.
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const settings = useQuery({
    queryKey: ["model-settings", accountId, viewingAs],
    queryFn: ({ signal }) => apiClient.call(getModelSettings, { signal }),
  });
  return (
    <Card withBorder padding="lg" maw={520}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          AI model
        </Title>
        {settings.isPending ? <LoadingState label="Loading the model settings…" /> : null}
        {settings.isError ? (
          <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
        ) : null}
        {settings.data ? (
          <ModelForm
            key={JSON.stringify(settings.data.settings)}
            settings={settings.data.settings}
            savedAt={savedAt}
            onSaved={() => setSavedAt(Date.now())}
          />
        ) : null}
      </Stack>
    </Card>
  );
}
