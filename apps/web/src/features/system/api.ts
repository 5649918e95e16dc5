import { type SystemInfo, systemInfo } from "@switchboard/api";
import { useQuery } from "@tanstack/react-query";
import { apiClient } from "../../lib/api-client.ts";

export const systemInfoQueryKey = ["system", "info"] as const;

/** GET /api/v1/system/info: build, version and the configuration a user may see. */
export function useSystemInfo() {
  return useQuery<SystemInfo>({
    queryKey: systemInfoQueryKey,
    queryFn: ({ signal }) => apiClient.call(systemInfo, { signal }),
    staleTime: 30_000,
  });
}
