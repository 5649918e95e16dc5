import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { useEffect } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { NotFoundPage } from "../features/not-found/not-found-page.tsx";
import { completeRouteProgress } from "../lib/route-progress.ts";

/** Error element of the routes: Not found for 404s, otherwise a way to reload. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    completeRouteProgress();
  }, []);
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const message = error instanceof Error ? error.message : null;
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={480} ta="center">
        <Title order={1}>Something went wrong</Title>
        <Text c="dimmed">This page could not be shown. Reloading usually helps.</Text>
        {message ? (
          <Text size="sm" c="dimmed" ff="monospace">
            {message}
          </Text>
        ) : null}
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}
