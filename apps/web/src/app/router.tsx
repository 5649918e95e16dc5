import { createBrowserRouter, type RouteObject, redirect } from "react-router";
import { SignInPage } from "../features/auth/signin-page.tsx";
import { NotFoundPage } from "../features/not-found/not-found-page.tsx";
import { AppGate, appPageLoader, LazyAppPage, shouldRevalidateAppPage } from "./app-gate.tsx";
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
  Component: LazyAppPage,
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
        // Signed-out visits go to /signin before the signed-in shell's chunk loads (app-gate.tsx).
        Component: AppGate,
        children: [
          { index: true, ...appPageRoute },
          { path: "*", ...appPageRoute },
        ],
      },
      // Part of the first load, not a chunk of its own: every signed-out visit ends here, and a lazy route
      // chained ~18 small requests after the entry script before the first paint (issue #23: Lighthouse).
      { path: "signin", Component: SignInPage },
      {
        path: "signup",
        lazy: async () => ({
          Component: (await import("../features/auth/signup-page.tsx")).SignUpPage,
        }),
      },
      {
        // The public page of a payment link (spec: "Pay invoice: slug"): works signed out.
        path: "pay",
        lazy: async () => ({
          Component: (await import("../features/pay/pay-page.tsx")).PayPage,
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
