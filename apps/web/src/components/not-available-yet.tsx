import { Alert, Button, Group, List, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";

/** A way forward from a screen whose feature has not landed: a link to a page or an action in place. */
export type NextStep = { label: string; to: string } | { label: string; onClick: () => void };

/**
 * What a screen is for, what is missing in Switchboard today, and what to do instead — never a dead end.
 * Used by the pages and overlays of areas whose issues have not landed (numbers, money, tasks, ...).
 */
export function NotAvailableYet({
  purpose,
  missing,
  instead,
  actions = [],
}: {
  purpose: ReactNode;
  missing: ReactNode;
  instead: ReactNode[];
  actions?: NextStep[];
}) {
  return (
    <Stack gap="md">
      <Text>{purpose}</Text>
      <Alert variant="light" color="yellow" title="Not available yet">
        {missing}
      </Alert>
      <Stack gap={4}>
        <Text fw={600} size="sm">
          What you can do now
        </Text>
        <List size="sm" spacing={4}>
          {instead.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, known by its place.
            <List.Item key={index}>{item}</List.Item>
          ))}
        </List>
      </Stack>
      {actions.length > 0 ? (
        <Group gap="xs">
          {actions.map((action, index) =>
            "to" in action ? (
              <Button
                key={action.label}
                component={Link}
                to={action.to}
                variant={index === 0 ? "filled" : "default"}
              >
                {action.label}
              </Button>
            ) : (
              <Button
                key={action.label}
                onClick={action.onClick}
                variant={index === 0 ? "filled" : "default"}
              >
                {action.label}
              </Button>
            ),
          )}
        </Group>
      ) : null}
    </Stack>
  );
}
