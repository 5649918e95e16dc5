import type { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, type RouteObject, RouterProvider } from "react-router";
import { createQueryClient, Providers } from "../app/providers.tsx";
import { type HostProfile, MAIN_HOST_PROFILE } from "../lib/host-profile.ts";

/** Renders `element` at every path of a memory router inside the app's providers (Mantine in test mode). */
export function renderAt(
  path: string,
  element: ReactNode,
  options: { hostProfile?: HostProfile; routes?: RouteObject[]; queryClient?: QueryClient } = {},
) {
  const router = createMemoryRouter(options.routes ?? [{ path: "*", element }], { initialEntries: [path] });
  const view = render(
    <Providers
      queryClient={options.queryClient ?? createQueryClient()}
      hostProfile={options.hostProfile ?? MAIN_HOST_PROFILE}
      env="test"
    >
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, ...view };
}
