import { Badge, Button, Group, List, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { confirm } from "../../components/confirm/confirm-store.ts";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAccountState } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { type App, parseAppKey, useApp, useInstallApp, useUninstallApp } from "./api.ts";

type Parameter = { description?: string; default?: string; secret?: boolean; format?: string };

/** `?install=<appId>@<version>`: one app, what it lets an agent do, and installing or removing it. */
export function InstallAppOverlay({ value, close }: OverlayComponentProps) {
  const key = parseAppKey(value);
  if (!key) return <Text>There is no app “{value}”. Choose one from an agent’s Actions.</Text>;
  return <AppDetails appId={key.appId} appVersion={key.appVersion} close={close} />;
}

function AppDetails({ appId, appVersion, close }: { appId: string; appVersion: string; close: () => void }) {
  const app = useApp(appId, appVersion);
  if (app.isPending) return <LoadingState label="Loading the app…" />;
  if (app.isError) return <ErrorState error={app.error} onRetry={() => void app.refetch()} />;
  return <AppForm app={app.data} close={close} />;
}

function AppForm({ app, close }: { app: App; close: () => void }) {
  const { view } = useAccountState();
  const canEdit = view.permissions.canEditOrg;
  const install = useInstallApp();
  const uninstall = useUninstallApp();
  const parameters = Object.entries(app.dependencies.providers.auth.parameters.properties) as [
    string,
    Parameter,
  ][];
  const [data, setData] = useState<Record<string, string>>(() =>
    Object.fromEntries(parameters.map(([name, p]) => [name, String(app.data?.[name] ?? p.default ?? "")])),
  );
  const params = { appId: app.appId, appVersion: app.appVersion };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    install.mutate(
      { ...params, data },
      {
        onSuccess: () => toast.success(`${app.name} installed. Its functions are in every agent’s Actions.`),
      },
    );
  };
  const remove = () =>
    confirm({
      title: `Remove ${app.name}?`,
      details: "Agents can no longer call its functions.",
      confirmText: "Remove",
      confirmColor: "red",
      onConfirm: async () => {
        await uninstall.mutateAsync(params);
        toast.success(`${app.name} removed.`);
      },
    });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Group gap="xs">
          <Text fw={600}>{app.name}</Text>
          {app.installed ? (
            <Badge color="green" variant="light">
              Installed
            </Badge>
          ) : null}
        </Group>
        <Text size="sm">{app.description}</Text>
        <Text size="sm" fw={600}>
          What agents can do with it
        </Text>
        <List size="sm" spacing={4}>
          {app.functions.map((fn) => (
            <List.Item key={fn.name}>
              <Text span fw={500} size="sm">
                {fn.name}
              </Text>
              : {fn.description}
            </List.Item>
          ))}
        </List>
        {app.installed
          ? null
          : parameters.map(([name, parameter]) => {
              const Input = parameter.secret ? PasswordInput : TextInput;
              return (
                <Input
                  key={name}
                  label={name}
                  description={parameter.description}
                  value={data[name] ?? ""}
                  disabled={!canEdit}
                  onChange={(event) => {
                    const next = event.currentTarget.value;
                    setData((current) => ({ ...current, [name]: next }));
                  }}
                />
              );
            })}
        <ActionError error={install.error} />
        {canEdit ? null : <Text c="dimmed">Only an owner or admin of the organization installs apps.</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {app.installed ? "Close" : "Cancel"}
          </Button>
          {canEdit && app.installed ? (
            <Button variant="light" color="red" onClick={() => void remove()}>
              Remove
            </Button>
          ) : null}
          {canEdit && !app.installed ? (
            <Button type="submit" loading={install.isPending}>
              Install
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
