import {
  createAgentTest,
  deleteAgentTest,
  listAgentTests,
  runAgentTests,
  type TestScenarioFields,
} from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiClient } from "../../lib/api-client.ts";

/** How often the panel asks again while a run goes. */
const RUN_POLL_MS = 1500;

export const agentTestsKey = (agentId: number) => ["agent-tests", agentId] as const;

/** The agent's scenarios and latest runs; polled while a run goes, so its progress shows. */
export function useAgentTests(agentId: number) {
  return useQuery({
    queryKey: agentTestsKey(agentId),
    queryFn: ({ signal }) => apiClient.call(listAgentTests, { params: { id: agentId }, signal }),
    refetchInterval: (query) => (query.state.data?.runs[0]?.status === "running" ? RUN_POLL_MS : false),
  });
}

function useInvalidate(agentId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: agentTestsKey(agentId) });
}

export function useCreateScenario(agentId: number) {
  const invalidate = useInvalidate(agentId);
  return useMutation({
    mutationFn: (body: TestScenarioFields) =>
      apiClient.call(createAgentTest, { params: { id: agentId }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteScenario(agentId: number) {
  const invalidate = useInvalidate(agentId);
  return useMutation({
    mutationFn: (scenarioId: number) =>
      apiClient.call(deleteAgentTest, { params: { id: agentId, scenarioId } }),
    onSuccess: invalidate,
  });
}

export function useRunTests(agentId: number) {
  const invalidate = useInvalidate(agentId);
  return useMutation({
    mutationFn: () => apiClient.call(runAgentTests, { params: { id: agentId } }),
    onSuccess: invalidate,
  });
}
