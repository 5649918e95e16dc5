import { Anchor, Badge, Button, Group, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { fetchCallsForReview } from "@switchboard/api";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { accountAppPath } from "../../lib/account-path.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { adminCall } from "./api.ts";

/** Calls for review a page. */
export const REVIEW_PAGE_SIZE = 20;

function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * The reasons as the server gives them: a code ("agent_turn_failed", "modelTimeout") reads as words; a log's
 * reviewReason, written by a person or the analysis ("Call dropped mid-booking"), is shown as written.
 */
export function reasonLabel(reason: string): string {
  if (/\s/.test(reason.trim())) return reason.trim();
  const text = reason
    .replace(/[_-]+/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .trim();
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}

export function useCallsForReview(page: number) {
  return useQuery({
    queryKey: ["callsForReview", page],
    queryFn: ({ signal }) =>
      // Every tenant's calls: not only those of the account in view (no targetAccountId).
      adminCall(fetchCallsForReview, {
        query: { page, pageSize: REVIEW_PAGE_SIZE, targetAccountId: undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/**
 * Super admin → Accounts → Calls for review (GET /internal/fetchCallsForReview): the calls of every tenant
 * in the last 30 days that are flagged — an agent turn failed in them, or their log data carries a
 * reviewReason — newest first, with the way to their transcript and to the organisation (refunds).
 */
export function CallsForReviewPanel() {
  const times = useTimeFormat();
  const [page, setPage] = useState(1);
  const overlays = useOverlays();
  const query = useCallsForReview(page);
  if (query.isPending) return <LoadingState label="Loading calls for review…" />;
  if (query.isError)
    return (
      <ErrorState
        title="Calls for review could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  const { calls, pagination } = query.data;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Calls of every organization in the last 30 days in which the agent failed to answer, or that were
        flagged, newest first.
      </Text>
      {calls.length === 0 ? (
        <EmptyState>No calls need a review: no agent failed and no call was flagged.</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" highlightOnHover aria-label="Calls for review">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Organization</Table.Th>
                <Table.Th>Call</Table.Th>
                <Table.Th>Why</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
              {calls.map((call) => (
                <Table.Tr key={call.uuid} data-testid="review-row">
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: "nowrap" }}>
                      {times.format(call.timestamp, "dateTime")}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={accountAppPath("organization", call.orgId)} size="sm">
                      {call.accountName ?? `Organization ${call.orgId}`}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {call.direction === "outbound" ? "Outbound" : "Inbound"}, {duration(call.duration)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {call.reasons.map((reason) => (
                        <Badge key={reason} size="sm" color="orange" variant="light" tt="none">
                          {reasonLabel(reason)}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap" justify="flex-end">
                      {call.roomId ? (
                        <Button
                          size="xs"
                          variant="light"
                          component={Link}
                          to={`${accountAppPath("organization", call.orgId, "logs")}?callTranscript=${encodeURIComponent(`${call.roomId}/${call.uuid}`)}`}
                        >
                          Transcript
                        </Button>
                      ) : null}
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => overlays.open("orgAdmin", String(call.orgId))}
                      >
                        Refund or disable
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {page > 1 || pagination.hasMore ? (
        <Group gap="xs" aria-label="Pages of calls for review" role="navigation">
          <Button size="xs" variant="default" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <Text size="sm">Page {page}</Text>
          <Button
            size="xs"
            variant="default"
            disabled={!pagination.hasMore}
            onClick={() => setPage(page + 1)}
          >
            Older
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
