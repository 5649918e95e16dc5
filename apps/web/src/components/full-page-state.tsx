import { Button, Center, Group, Loader, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** A whole-page loading state with a visible label. */
export function FullPageLoader({ label }: { label: string }) {
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader size="md" aria-hidden />
        <Text c="dimmed">{label}</Text>
      </Stack>
    </Center>
  );
}

/** A whole-page error: a title, the message (as an alert) and what the user can do. */
export function FullPageError({
  title,
  message,
  children,
}: {
  title: string;
  message: string;
  children?: ReactNode;
}) {
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text role="alert">{message}</Text>
        {children ? (
          <Group gap="sm" justify="center">
            {children}
          </Group>
        ) : null}
      </Stack>
    </Center>
  );
}

export function RetryButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="light" onClick={onClick}>
      Try again
    </Button>
  );
}
