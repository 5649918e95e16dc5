import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from "@mantine/core";
import type { AgentVersion } from "@switchboard/api";
import IconPencil from "@tabler/icons-react/dist/esm/icons/IconPencil.mjs";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { confirm } from "../../../../components/confirm/confirm-store.ts";
import { ActionError, ErrorState, LoadingState } from "../../../../components/query-state.tsx";
import { toast } from "../../../../lib/toast.ts";
import { useTimeFormat } from "../../../../lib/use-time-format.ts";
import { useOverlays } from "../../../../overlays/use-overlays.tsx";
import { restoreVersion, useCreateVersion, useRenameVersion, useVersions } from "../../api.ts";
import { compareValue } from "../compare-sides.ts";
import type { PanelProps } from "../panels.ts";

function RenameVersion({
  agentId,
  version,
  done,
}: {
  agentId: number;
  version: AgentVersion;
  done: () => void;
}) {
  const rename = useRenameVersion(agentId);
  const [title, setTitle] = useState(version.title);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        rename.mutate({ versionId: version.id, title }, { onSuccess: done });
      }}
    >
      <Group gap="xs" wrap="nowrap">
        <TextInput
          aria-label="Version title"
          size="xs"
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          error={rename.error ? String((rename.error as Error).message) : undefined}
          data-autofocus
        />
        <Button size="xs" type="submit" loading={rename.isPending}>
          Save
        </Button>
        <Button size="xs" variant="default" onClick={done}>
          Cancel
        </Button>
      </Group>
    </form>
  );
}

/** Versions: snapshots of the whole configuration to make, rename, restore and compare. */
export function VersionsPanel({ agentId, editor }: PanelProps) {
  const times = useTimeFormat();
  const versions = useVersions(agentId);
  const create = useCreateVersion(agentId);
  const overlays = useOverlays();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState("");
  const [renaming, setRenaming] = useState<number | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [restoreError, setRestoreError] = useState<unknown>(null);

  const makeVersion = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!(await editor.save())) return;
    create.mutate(
      { ...(title.trim() ? { title: title.trim() } : {}), source: "staging" },
      {
        onSuccess: (answer) => {
          setTitle("");
          toast.success(`Version “${answer.version.title}” made.`);
        },
      },
    );
  };

  const restore = async (version: AgentVersion) => {
    const ok = await confirm({
      title: `Restore “${version.title}”?`,
      details: "The draft becomes this version. Publish afterwards to make it live.",
      confirmText: "Restore",
    });
    if (!ok) return;
    setRestoreError(null);
    try {
      await editor.save();
      editor.adopt({ staging: await restoreVersion(agentId, version.id) });
      await queryClient.invalidateQueries({ queryKey: ["agent-versions", agentId] });
      toast.success(`Restored “${version.title}”.`);
    } catch (error) {
      setRestoreError(error);
    }
  };

  const toggle = (id: number, on: boolean) =>
    setChosen((current) =>
      on ? [...current.filter((x) => x !== id), id].slice(-2) : current.filter((x) => x !== id),
    );

  return (
    <Stack gap="md">
      <form onSubmit={(event) => void makeVersion(event)}>
        <Group align="flex-end" gap="xs">
          <TextInput
            label="New version"
            placeholder="Title (optional)"
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={create.error ? (create.error as Error).message : undefined}
          />
          <Button type="submit" loading={create.isPending}>
            Make a version
          </Button>
        </Group>
      </form>
      <ActionError error={restoreError} />
      {versions.isPending ? <LoadingState label="Loading versions…" /> : null}
      {versions.isError ? (
        <ErrorState error={versions.error} onRetry={() => void versions.refetch()} />
      ) : null}
      {versions.data?.versions.length === 0 ? (
        <Text c="dimmed">No versions yet. Make one before a big change, so you can go back to it.</Text>
      ) : null}
      {versions.data && versions.data.versions.length > 0 ? (
        <>
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              disabled={chosen.length !== 2}
              onClick={() => overlays.open("compareChanges", compareValue(agentId, chosen[0], chosen[1]))}
            >
              Compare the two chosen
            </Button>
            <Text size="xs" c="dimmed">
              Choose two versions, or compare one with the draft.
            </Text>
          </Group>
          <Table verticalSpacing="xs" aria-label="Versions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th aria-label="Choose" />
                <Table.Th>Title</Table.Th>
                <Table.Th>Made</Table.Th>
                <Table.Th>From</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {versions.data.versions.map((version) => (
                <Table.Tr key={version.id}>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Choose ${version.title}`}
                      checked={chosen.includes(version.id)}
                      onChange={(event) => toggle(version.id, event.currentTarget.checked)}
                    />
                  </Table.Td>
                  <Table.Td>
                    {renaming === version.id ? (
                      <RenameVersion agentId={agentId} version={version} done={() => setRenaming(null)} />
                    ) : (
                      <Group gap={4} wrap="nowrap">
                        <Text size="sm">{version.title}</Text>
                        <ActionIcon
                          variant="subtle"
                          size="sm"
                          aria-label={`Rename ${version.title}`}
                          onClick={() => setRenaming(version.id)}
                        >
                          <IconPencil size={14} />
                        </ActionIcon>
                      </Group>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{times.format(version.createdAt, "dateTime")}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{version.source}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() =>
                          overlays.open("compareChanges", compareValue(agentId, version.id, "staging"))
                        }
                      >
                        Compare with draft
                      </Button>
                      <Button size="xs" variant="light" onClick={() => void restore(version)}>
                        Restore
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      ) : null}
    </Stack>
  );
}
