import { createApiClient } from "@switchboard/api";

/**
 * The typed API client of the web app (same origin). Import it only from lazy chunks (overlays, feature
 * pages, their api.ts): @switchboard/api carries zod and every route schema, which the /app shell's initial
 * bundle must not.
 */
export const apiClient = createApiClient();
