import { useEffect } from "react";
import { Outlet, useNavigation } from "react-router";
import { EnvironmentProvider } from "../lib/environment.tsx";
import { completeRouteProgress, startRouteProgress } from "../lib/route-progress.ts";

/** Drives the top progress bar from React Router's navigation state (spec §2.2). */
function RouteProgress() {
  const navigation = useNavigation();
  useEffect(() => {
    if (navigation.state === "idle") completeRouteProgress();
    else startRouteProgress();
  }, [navigation.state]);
  return null;
}

export function RootLayout() {
  return (
    <EnvironmentProvider>
      <RouteProgress />
      <Outlet />
    </EnvironmentProvider>
  );
}

/** Shown while the first route's chunk loads; the bar completes when RootLayout mounts. */
export function RootHydrateFallback() {
  useEffect(() => {
    startRouteProgress();
  }, []);
  return null;
}
