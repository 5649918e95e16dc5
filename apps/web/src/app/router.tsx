import { createBrowserRouter, type RouteObject, redirect } from "react-router";
import { NotFoundPage } from "../features/not-found/not-found-page.tsx";
import { AccountLayer } from "./account-layer.tsx";
import { AppLayout } from "./app-layout.tsx";
import { AppPage, appPageLoader, shouldRevalidateAppPage } from "./app-page.tsx";
import { RootHydrateFallback, RootLayout } from "./root-layout.tsx";
import { RouteError } from "./route-error.tsx";

/** Never shown: the loader redirects first. */
function Redirecting() {
  return null;
}

/** One catch-all page under /app: the path names the account in view and the product area. */
const appPageRoute = {
  loader: appPageLoader,
  shouldRevalidate: shouldRevalidateAppPage,
  Component: AppPage,
  errorElement: <RouteError />,
} satisfies RouteObject;

/**
 * Routes of spec §2.2: /app (wrapped in the account layer) with a catch-all, the bare /signin, /signup and
 * /mobile/start, / -> /app.
 */
export const routes: RouteObject[] = [
  {
    id: "root",
    Component: RootLayout,
    HydrateFallback: RootHydrateFallback,
    errorElement: <RouteError />,
    children: [
      {
        index: true,
        loader: ({ request }) => redirect(`/app${new URL(request.url).search}`),
        Component: Redirecting,
      },
      {
        path: "app",
        element: (
          <AccountLayer>
            <AppLayout />
          </AccountLayer>
        ),
        children: [
          { index: true, ...appPageRoute },
          { path: "*", ...appPageRoute },
        ],
      },
      {
        path: "signin",
        lazy: async () => ({
          Component: (await import("../features/auth/signin-page.tsx")).SignInPage,
        }),
      },
      {
        path: "signup",
        lazy: async () => ({
          Component: (await import("../features/auth/signup-page.tsx")).SignUpPage,
        }),
      },
      {
        path: "mobile/start",
        lazy: async () => ({
          Component: (await import("../features/mobile-start/mobile-start-page.tsx")).MobileStartPage,
        }),
      },
      { path: "*", Component: NotFoundPage },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
