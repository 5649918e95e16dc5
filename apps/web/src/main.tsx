import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "@mantine/nprogress/styles.css";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { createQueryClient, Providers } from "./app/providers.tsx";
import { createAppRouter } from "./app/router.tsx";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

const router = createAppRouter();
const queryClient = createQueryClient();

const root = createRoot(container);
// The first render as a transition: React renders it in slices and lets the browser in between, instead of
// holding the main thread for the whole shell at once.
startTransition(() => {
  root.render(
    <StrictMode>
      <Providers queryClient={queryClient}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
