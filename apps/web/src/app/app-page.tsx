import {
  data,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
  useLoaderData,
} from "react-router";
import { type FeatureSlug, featureForSegments, loadedFeature, loadFeature } from "../features/registry.ts";
import { parseAppPath } from "../lib/account-path.ts";

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

export function AppPage() {
  const { slug } = useLoaderData() as AppPageData;
  const Page = loadedFeature(slug);
  return Page ? <Page /> : null;
}
