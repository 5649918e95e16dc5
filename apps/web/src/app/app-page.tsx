import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { data, Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import {
  type FeatureSlug,
  featureForSegments,
  getFeature,
  isFeatureVisible,
  loadedFeature,
  loadFeature,
} from "../features/registry.ts";
import { useAppPath } from "../lib/account-context.ts";
import { parseAppPath } from "../lib/account-path.ts";
import { useOptionalAccountState } from "../lib/account-state.ts";

/** What the /app catch-all's loader (app-gate.tsx) gives the page. */
export type AppPageData = { slug: FeatureSlug | null };

/**
 * The /app catch-all's loading for a signed-in visit (app-gate.tsx's loader calls it): finds the product area of the path and loads its chunk before the route
 * changes, so the top progress bar runs while it downloads. Unknown areas are a 404.
 */
export async function loadAppPage({ request }: LoaderFunctionArgs): Promise<{ slug: FeatureSlug }> {
  const parsed = parseAppPath(new URL(request.url).pathname);
  const slug = parsed ? featureForSegments(parsed.rest) : null;
  if (!slug) throw data("Not found", { status: 404 });
  await loadFeature(slug);
  return { slug };
}

/**
 * An area the permission flags (or the account type) do not open for the account in view. An
 * organisation's area seen from a partner or reseller says where to find it: in the organisation.
 */
function NotAvailable({ label, inOrganization }: { label: string; inOrganization: string | null }) {
  const { accountPrefix } = useAppPath();
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <Title order={1}>{label}</Title>
        <Text c="dimmed">
          {inOrganization
            ? `Each organisation has its own ${inOrganization}. Open the organisation from Accounts to work on them.`
            : "This area is not available for the account in view."}
        </Text>
        <Button component={Link} to={inOrganization ? `${accountPrefix}/accounts` : accountPrefix}>
          {inOrganization ? "Go to Accounts" : "Go to the dashboard"}
        </Button>
      </Stack>
    </Center>
  );
}

export function AppPage() {
  const { slug } = useLoaderData() as AppPageData;
  const state = useOptionalAccountState();
  if (!slug) return null;
  const feature = getFeature(slug);
  if (
    state &&
    !isFeatureVisible(feature, {
      permissions: state.view.permissions,
      accountType: state.view.account.accountType,
    })
  ) {
    const accountType = state.view.account.accountType;
    const inOrganization =
      feature.organizationData && (accountType === "partner" || accountType === "reseller")
        ? feature.organizationData
        : null;
    return <NotAvailable label={feature.label} inOrganization={inOrganization} />;
  }
  const Page = loadedFeature(slug);
  return Page ? <Page /> : null;
}
