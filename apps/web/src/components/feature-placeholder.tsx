import { Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** An honest empty page: what the area will hold, and that it is not built yet. */
export function FeaturePlaceholder({
  title,
  description,
  children,
}: {
  title: string;
  description: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{title}</Title>
      <Text>{description}</Text>
      <Text c="dimmed">This page is not built yet.</Text>
      {children}
    </Stack>
  );
}
