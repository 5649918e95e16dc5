import { Alert, Button, Center, Loader, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { errorMessage } from "../lib/shell-api.ts";

/** Loading state of a panel or overlay. */
export function LoadingState({ label = "Loading…" }: { label?: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="xs" role="status">
        <Loader size="sm" aria-hidden />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

/** Error state: the server's message and a retry. */
export function ErrorState({
  title = "This could not be loaded",
  error,
  onRetry,
}: {
  title?: string;
  error: unknown;
  onRetry?: () => void;
}) {
  return (
    <Alert color="red" variant="light" title={title} role="alert">
      <Stack gap="xs">
        <Text size="sm">{errorMessage(error)}</Text>
        {onRetry ? (
          <Button size="xs" variant="white" color="red" w="fit-content" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** Empty state: what is missing and, if any, how to add it. */
export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <Stack align="center" gap="sm" py="lg">
      <Text c="dimmed">{children}</Text>
      {action}
    </Stack>
  );
}

/** A failed action: the server's message, word for word. */
export function ActionError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {errorMessage(error)}
    </Alert>
  );
}
