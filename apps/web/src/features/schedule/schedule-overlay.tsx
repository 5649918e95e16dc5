import { Badge, Group, Stack, Table, Text, Title } from "@mantine/core";
import { type Booking, getSchedule } from "@switchboard/api";
import { useQuery } from "@tanstack/react-query";
import { useAccountKey } from "../../app/account-state.ts";
import { EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { apiClient } from "../../lib/api-client.ts";
import type { OverlayComponentProps } from "../../overlays/registry.ts";
import { overlayAccountId } from "../accounts/account-kinds.ts";

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: "long", month: "long", day: "numeric" });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });

function byDay(bookings: Booking[]): [string, Booking[]][] {
  const days = new Map<string, Booking[]>();
  for (const booking of [...bookings].sort((a, b) => a.start - b.start)) {
    const day = dayFormat.format(new Date(booking.start));
    days.set(day, [...(days.get(day) ?? []), booking]);
  }
  return [...days.entries()];
}

/** `?schedule` (every agent of the organisation) or `?schedule=<agentId>`: upcoming bookings. */
export function ScheduleOverlay({ value }: OverlayComponentProps) {
  const agentId = overlayAccountId(value);
  const [accountId, viewingAs] = useAccountKey();
  const schedule = useQuery({
    queryKey: ["schedule", accountId, viewingAs, agentId],
    queryFn: ({ signal }) => apiClient.call(getSchedule, { query: agentId ? { agentId } : {}, signal }),
  });
  if (schedule.isPending) return <LoadingState label="Loading the schedule…" />;
  if (schedule.isError) return <ErrorState error={schedule.error} onRetry={() => void schedule.refetch()} />;
  if (schedule.data.bookings.length === 0)
    return (
      <EmptyState>No upcoming bookings. Bookings the agent makes on calls and chats appear here.</EmptyState>
    );
  return (
    <Stack gap="md" aria-label="Bookings">
      {byDay(schedule.data.bookings).map(([day, bookings]) => (
        <Stack key={day} gap={4}>
          <Title order={5}>{day}</Title>
          <Table verticalSpacing={4}>
            <Table.Tbody>
              {bookings.map((booking) => (
                <Table.Tr key={booking.id} data-testid="booking">
                  <Table.Td w={150}>
                    {timeFormat.format(new Date(booking.start))} – {timeFormat.format(new Date(booking.end))}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs">
                      <Text size="sm" fw={500}>
                        {booking.name}
                      </Text>
                      {booking.status === "cancelled" ? (
                        <Badge color="gray" size="sm">
                          Cancelled
                        </Badge>
                      ) : null}
                    </Group>
                    {booking.notes ? (
                      <Text size="xs" c="dimmed">
                        {booking.notes}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{booking.phoneNumber ?? booking.email ?? ""}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" size="sm">
                      {booking.source === "agent" ? "By the agent" : "Manual"}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ))}
    </Stack>
  );
}
