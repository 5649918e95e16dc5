import { Button, Center, Stack, Text, Title } from "@mantine/core";
import {
  data,
  Link,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
  useLoaderData,
} from "react-router";
import {
  type FeatureSlug,
  featureForSegments,
  getFeature,
  isFeatureVisible,
  loadedFeature,
  loadFeature,
} from "../features/registry.ts";
import { parseAppPath } from "../lib/account-path.ts";
import { useAppPath } from "./account-context.ts";
import { useOptionalAccountState } from "./account-state.ts";

type AppPageData = { slug: FeatureSlug };

/**
 * Loader of the /app catch-all: finds the product area of the path and loads its chunk before the route
 * changes, so the top progress bar runs while it downloads. Unknown areas are a 404.
 */
export async function appPageLoader({ request }: LoaderFunctionArgs): Promise<AppPageData> {
  const parsed = parseAppPath(new URL(request.url).pathname);
  const slug = parsed ? featureForSegments(parsed.rest) : null;
  if (!slug) throw data("Not found", { status: 404 });
  await loadFeature(slug);
  return { slug };
}

/** Only a new path reloads the page: overlays and filters change the query alone. */
export function shouldRevalidateAppPage({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate;
}

/** An area the permission flags (or the account type) do not open for the account in view. */
function NotAvailable({ label }: { label: string }) {
  const { accountPrefix } = useAppPath();
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <Title order={1}>{label}</Title>
        <Text c="dimmed">This area is not available for the account in view.</Text>
        <Button component={Link} to={accountPrefix}>
          Go to the dashboard
        </Button>
      </Stack>
    </Center>
  );
}

export function AppPage() {
  const { slug } = useLoaderData() as AppPageData;
  const state = useOptionalAccountState();
  const feature = getFeature(slug);
  if (
    state &&
    !isFeatureVisible(feature, {
      permissions: state.view.permissions,
      accountType: state.view.account.accountType,
    })
  ) {
    return <NotAvailable label={feature.label} />;
  }
  const Page = loadedFeature(slug);
  return Page ? <Page /> : null;
}
