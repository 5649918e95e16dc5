import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";

/** Shown for any address the app does not know, inside /app and outside it. */
export function NotFoundPage() {
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm">
        <Title order={1}>Page not found</Title>
        <Text c="dimmed">There is nothing at this address.</Text>
        <Button component={Link} to="/app">
          Go to Switchboard
        </Button>
      </Stack>
    </Center>
  );
}
