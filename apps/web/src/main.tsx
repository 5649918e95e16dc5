import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "@mantine/nprogress/styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { createQueryClient, Providers } from "./app/providers.tsx";
import { createAppRouter } from "./app/router.tsx";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

const router = createAppRouter();
const queryClient = createQueryClient();

createRoot(container).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
