import { Stack, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { useAppPath } from "../lib/account-context.ts";
import { appPath } from "../lib/account-path.ts";
import { NotAvailableYet } from "./not-available-yet.tsx";

/**
 * The page of an area whose issue has not landed: what it will hold, what is missing today, and what to do
 * instead, with links to areas that work (`links` name their area: `agents`, `developers`, ...).
 */
export function FeaturePlaceholder({
  title,
  description,
  missing,
  instead,
  links = [],
}: {
  title: string;
  description: ReactNode;
  missing: ReactNode;
  instead: ReactNode[];
  links?: { label: string; area: string }[];
}) {
  const { accountPrefix } = useAppPath();
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{title}</Title>
      <NotAvailableYet
        purpose={description}
        missing={missing}
        instead={instead}
        actions={links.map((link) => ({ label: link.label, to: appPath(accountPrefix, link.area) }))}
      />
    </Stack>
  );
}
