import { Alert, Center, Group, Image, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { CodeEntry } from "../../components/code-entry.tsx";
import { brandName, useHostProfile } from "../../lib/host-profile.ts";

/** The frame of the sign-in and sign-up pages: the host's name and image, a title, the form. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const host = useHostProfile();
  const brand = brandName(host);
  return (
    <Center mih="100vh" p="md">
      <Stack gap="lg" w="100%" maw={420}>
        <Group gap="sm" justify="center">
          {host.image ? <Image src={host.image} alt="" h={36} w="auto" fit="contain" /> : null}
          <Text fw={700} size="xl">
            {brand}
          </Text>
        </Group>
        <Paper withBorder shadow="sm" p="lg" radius="md">
          <Stack gap="md">
            <Title order={1} size="h3">
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}

/** A failed request: the server's message, word for word. */
export function ErrorAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert" title="That did not work">
      {message}
    </Alert>
  );
}

/** The second step of sign-in and sign-up: where the code went, the 6-digit entry, then the page's links. */
export function CodeStep({
  message,
  error,
  submitLabel,
  submitting,
  onSubmit,
  children,
}: {
  message: string;
  error: string | null;
  submitLabel: string;
  submitting: boolean;
  onSubmit: (code: string) => void;
  children: ReactNode;
}) {
  return (
    <Stack gap="sm">
      <Text size="sm" role="status">
        {message}
      </Text>
      <ErrorAlert message={error} />
      <CodeEntry submitLabel={submitLabel} submitting={submitting} onSubmit={onSubmit} />
      {children}
    </Stack>
  );
}
