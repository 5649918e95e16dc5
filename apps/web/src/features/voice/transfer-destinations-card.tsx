import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Group,
  NumberInput,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { TRANSFER_DAYS, type TransferDestination, transferDestinationSchema } from "@switchboard/api";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { SavedNote } from "../../components/saved-note.tsx";
import { toast } from "../../lib/toast.ts";
import { useCallSettings, useSaveCallSettings } from "./call-settings-api.ts";

const DAY_LABELS: Record<(typeof TRANSFER_DAYS)[number], string> = {
  mon: "Mon",
  tue: "Tue",
  wed: "Wed",
  thu: "Thu",
  fri: "Fri",
  sat: "Sat",
  sun: "Sun",
};

const listSchema = transferDestinationSchema.array().max(20);

const blank = (): TransferDestination => ({ name: "", to: "", hours: null, ringSeconds: 20 });

/** The first problem of row `index` and field `field`, if the list does not parse. */
function problem(
  issues: readonly { path: PropertyKey[]; message: string }[],
  index: number,
  field: string,
): string | null {
  return issues.find((issue) => issue.path[0] === index && issue.path[1] === field)?.message ?? null;
}

function DestinationsForm({ agentId, initial }: { agentId: number; initial: TransferDestination[] }) {
  const save = useSaveCallSettings(agentId);
  const [rows, setRows] = useState<TransferDestination[]>(initial);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const parsed = listSchema.safeParse(rows);
  const issues = parsed.success ? [] : parsed.error.issues;
  const change = (index: number, next: Partial<TransferDestination>) => {
    setRows((current) => current.map((row, at) => (at === index ? { ...row, ...next } : row)));
    setSavedAt(null);
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!parsed.success) return;
        save.mutate(
          { transferDestinations: parsed.data },
          {
            onSuccess: () => {
              toast.success("Transfer destinations saved.");
              setSavedAt(Date.now());
            },
          },
        );
      }}
    >
      <Stack gap="sm">
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            No destinations yet: the agent cannot transfer calls.
          </Text>
        ) : null}
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own until saved.
          <Card key={index} withBorder padding="sm" aria-label={`Transfer destination ${index + 1}`}>
            <Stack gap="xs">
              <Group align="flex-start" grow>
                <TextInput
                  label="Name"
                  description="What the agent calls it: “sales”, “the on-call vet”."
                  value={row.name}
                  onChange={(event) => change(index, { name: event.currentTarget.value })}
                  error={problem(issues, index, "name")}
                />
                <TextInput
                  label="Number or SIP address"
                  placeholder="+15035550100 or sip:desk@pbx.example.com"
                  value={row.to}
                  onChange={(event) => change(index, { to: event.currentTarget.value })}
                  error={problem(issues, index, "to")}
                />
                <NumberInput
                  label="Ring for (s)"
                  description="Warm transfers: then the agent takes a message."
                  min={1}
                  max={120}
                  value={row.ringSeconds}
                  onChange={(value) => change(index, { ringSeconds: Number(value) })}
                  error={problem(issues, index, "ringSeconds")}
                />
              </Group>
              <Checkbox
                label="Only at certain hours"
                checked={row.hours !== null}
                onChange={(event) =>
                  change(index, {
                    hours: event.currentTarget.checked
                      ? { days: ["mon", "tue", "wed", "thu", "fri"], start: "09:00", end: "17:00" }
                      : null,
                  })
                }
              />
              {row.hours ? (
                <Group align="flex-end">
                  <Checkbox.Group
                    label="Days"
                    value={row.hours.days}
                    onChange={(days) =>
                      row.hours &&
                      change(index, {
                        hours: { ...row.hours, days: days as (typeof TRANSFER_DAYS)[number][] },
                      })
                    }
                    error={problem(issues, index, "hours")}
                  >
                    <Group gap="xs" mt={4}>
                      {TRANSFER_DAYS.map((day) => (
                        <Checkbox key={day} value={day} label={DAY_LABELS[day]} />
                      ))}
                    </Group>
                  </Checkbox.Group>
                  <TextInput
                    label="From"
                    w={90}
                    value={row.hours.start}
                    onChange={(event) =>
                      row.hours &&
                      change(index, { hours: { ...row.hours, start: event.currentTarget.value } })
                    }
                  />
                  <TextInput
                    label="To"
                    w={90}
                    value={row.hours.end}
                    onChange={(event) =>
                      row.hours && change(index, { hours: { ...row.hours, end: event.currentTarget.value } })
                    }
                  />
                </Group>
              ) : null}
              <Group justify="flex-end">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove ${row.name || "this destination"}`}
                  onClick={() => {
                    setRows((current) => current.filter((_, at) => at !== index));
                    setSavedAt(null);
                  }}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            </Stack>
          </Card>
        ))}
        <ActionError error={save.error} />
        <Group justify="space-between">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            disabled={rows.length >= 20}
            onClick={() => {
              setRows((current) => [...current, blank()]);
              setSavedAt(null);
            }}
          >
            Add destination
          </Button>
          <Group>
            <SavedNote at={savedAt} />
            <Button type="submit" loading={save.isPending} disabled={!parsed.success}>
              Save destinations
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Where the agent may transfer calls (the Call transfer app's transferCall names one): saved at once, not
 * part of the draft, like the call settings above it.
 */
export function TransferDestinationsCard({ agentId }: { agentId: number }) {
  const settings = useCallSettings(agentId);
  return (
    <Stack gap="xs">
      <Title order={4}>Transfer destinations</Title>
      <Text size="sm" c="dimmed">
        People or teams the agent may put callers through to (with the Call transfer app): cold, or warm after
        telling them who is calling.
      </Text>
      {settings.isError ? (
        <ErrorState
          title="The transfer destinations could not be loaded"
          error={settings.error}
          onRetry={() => void settings.refetch()}
        />
      ) : !settings.data ? (
        <LoadingState label="Loading the transfer destinations…" />
      ) : (
        <DestinationsForm agentId={agentId} initial={settings.data.settings.transferDestinations ?? []} />
      )}
    </Stack>
  );
}
