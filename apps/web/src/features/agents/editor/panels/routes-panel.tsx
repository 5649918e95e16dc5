import { Button, Card, Group, Stack, Text, TextInput } from "@mantine/core";
import type { Action } from "@switchboard/api";
import type { PanelProps } from "../panels.ts";

type TransferRoute = Action & { destination?: string; label?: string; when?: string };

const isRoute = (action: Action): action is TransferRoute => action.name === "transfer";

/** Where the agent may transfer a call (the campaign's `transfer` actions) and when. */
export function RoutesPanel({ editor, state }: PanelProps) {
  const { actions } = state.draft;
  const update = (index: number, patch: Partial<TransferRoute>) =>
    editor.edit({ actions: actions.map((action, i) => (i === index ? { ...action, ...patch } : action)) });
  const routes = actions.map((action, index) => ({ action, index })).filter(({ action }) => isRoute(action));
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        The agent transfers a call to one of these destinations when the caller’s need matches. With “confirm
        transfers” on (Advanced), it asks the caller first.
      </Text>
      {routes.length === 0 ? <Text c="dimmed">No transfer routes yet.</Text> : null}
      {routes.map(({ action, index }) => {
        const route = action as TransferRoute;
        return (
          <Card key={index} withBorder padding="sm">
            <Stack gap="xs">
              <Group grow>
                <TextInput
                  label="Name"
                  placeholder="Front desk"
                  value={route.label ?? ""}
                  onChange={(event) => update(index, { label: event.currentTarget.value })}
                />
                <TextInput
                  label="Destination"
                  placeholder="+15035550100 or sip:desk@example.com"
                  value={route.destination ?? ""}
                  onChange={(event) => update(index, { destination: event.currentTarget.value })}
                />
              </Group>
              <TextInput
                label="When"
                placeholder="The caller has an emergency"
                value={route.when ?? ""}
                onChange={(event) => update(index, { when: event.currentTarget.value })}
              />
              <Button
                variant="subtle"
                color="red"
                w="fit-content"
                onClick={() => editor.edit({ actions: actions.filter((_, i) => i !== index) })}
              >
                Remove route
              </Button>
            </Stack>
          </Card>
        );
      })}
      <Button
        variant="light"
        w="fit-content"
        onClick={() =>
          editor.edit({ actions: [...actions, { name: "transfer", label: "", destination: "" }] })
        }
      >
        Add a route
      </Button>
    </Stack>
  );
}
